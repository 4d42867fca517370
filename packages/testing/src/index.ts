export { createEmptyTestDatabase, createTestDatabase, connectSql } from "./database.ts";
