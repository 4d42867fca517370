// Dexcom v3 sends event values as strings: numbers are read from numeric strings too.
export { isObject, textOf, numericOf as numberOf, type JsonObject } from "../json-fields.ts";
