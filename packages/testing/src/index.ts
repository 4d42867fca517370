export { createEmptyTestDatabase, createTestDatabase, connectSql } from "./database.ts";
export { fixturesDir, fixturePath } from "./fixtures.ts";
