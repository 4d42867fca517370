// Numbers in these answers may come as numeric strings (time series values, int64 fields).
export { isObject, textOf, numericOf as numberOf, calendarDateOf as dateOf, type JsonObject } from "../json-fields.ts";
