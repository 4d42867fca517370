export { createTestDatabase, connectSql } from "./database.ts";
