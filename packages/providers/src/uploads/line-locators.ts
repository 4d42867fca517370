import type { ParsedRecords, RecordListName } from "@svc/core";

const RECORD_LISTS: readonly RecordListName[] = [
  "quantitySamples",
  "categorySamples",
  "sleepSessions",
  "workouts",
  "nutritionLogs",
  "dailySummaries",
  "heartbeatSeries",
  "ecgRecordings",
];

/**
 * Makes the locators of the records of one line of an upload (an activity file of
 * activity-files-base64) name the line first: `file` becomes `line 3`, `session[0]` becomes
 * `line 3, session[0]`, so a rejected record tells which file of the upload it is from.
 * Changes the parser's fresh output in place and returns it.
 */
export function locatedAtLine(parsed: ParsedRecords, lineNumber: number): ParsedRecords {
  const at = (locator: string | undefined) => (locator === undefined || locator === "file" ? `line ${lineNumber}` : `line ${lineNumber}, ${locator}`);
  for (const rejection of parsed.rejected) rejection.locator = at(rejection.locator);
  for (const list of RECORD_LISTS) {
    for (const record of parsed[list] as Array<{ locator?: string | undefined }>) record.locator = at(record.locator);
  }
  return parsed;
}
