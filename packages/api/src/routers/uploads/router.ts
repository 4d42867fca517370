import { router } from "../../trpc.ts";
import { getUpload } from "./get-upload.ts";

export const uploadsRouter = router({ getUpload });
