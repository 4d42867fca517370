export * from "./quantity-types.ts";
export * from "./category-types.ts";
export * from "./units.ts";
export * from "./data-categories.ts";
