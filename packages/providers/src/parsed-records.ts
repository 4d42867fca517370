// The contract between parsers and writers lives in @svc/core (the ETL writes what parsers produce).
export { emptyParsedRecords, type ParsedRecords, type ParseRejection, type RecordListName } from "@svc/core";

/** A problem with the upload as a whole (not one record): the route answers 400 naming it. */
export class MalformedUpload extends Error {
  readonly locator: string;
  constructor(locator: string, message: string) {
    super(message);
    this.locator = locator;
  }
}
