export { UPLOAD_ROUTES, uploadFormatOf, type UploadFormat, type UploadRoute, type UploadRouteName } from "./upload-routes.ts";
export { checkUpload } from "./check-upload.ts";
export { parseRawObject } from "./parse-raw-object.ts";
