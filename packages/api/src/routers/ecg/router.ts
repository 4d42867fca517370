import { router } from "../../trpc.ts";
import { getEcgRecording } from "./get-ecg-recording.ts";
import { listEcgRecordings } from "./list-ecg-recordings.ts";

export const ecgRouter = router({ listEcgRecordings, getEcgRecording });
