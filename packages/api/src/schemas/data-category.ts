import { z } from "zod";
import { DATA_CATEGORIES, DATA_CATEGORY_DESCRIPTIONS } from "@svc/core";

const categoryList = DATA_CATEGORIES.map((category) => `\`${category}\` (${DATA_CATEGORY_DESCRIPTIONS[category]})`).join("; ");

/** A data category, as consents and shares name them. */
export const ZDataCategory = z.enum(DATA_CATEGORIES).describe(`A data category: ${categoryList}.`);
