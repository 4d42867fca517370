/** Where the generated reference goes, relative to the checkout's root. */
export const REFERENCE_DIR = "docs/reference";

/** The command that rewrites it (tooling/docs/write-reference.ts); the drift test names it. */
export const REGENERATE = "npm run docs:openapi";
