export * from "./quantity-types.ts";
export * from "./category-types.ts";
export * from "./units.ts";
