import path from "node:path";
import { fileRawStore, s3RawStore, type RawStore } from "@svc/core";
import type { Env } from "./env.ts";

/** The raw store SVC_RAW_STORE names: files under SVC_DATA_DIR/raw, or the S3-compatible bucket of SVC_S3_*. */
export function rawStoreFromEnv(env: Env): RawStore {
  if (env.SVC_RAW_STORE === "file") return fileRawStore(path.resolve(env.SVC_DATA_DIR, "raw"));
  const required = (name: "SVC_S3_ENDPOINT" | "SVC_S3_BUCKET" | "SVC_S3_ACCESS_KEY_ID" | "SVC_S3_SECRET_ACCESS_KEY") => {
    const value = env[name];
    if (!value) throw new Error(`Invalid configuration: ${name} is required when SVC_RAW_STORE=s3`);
    return value;
  };
  return s3RawStore({
    endpoint: required("SVC_S3_ENDPOINT"),
    bucket: required("SVC_S3_BUCKET"),
    region: env.SVC_S3_REGION,
    accessKeyId: required("SVC_S3_ACCESS_KEY_ID"),
    secretAccessKey: required("SVC_S3_SECRET_ACCESS_KEY"),
    prefix: env.SVC_S3_PREFIX ?? "",
    // On the data disk, not os.tmpdir(): an upload can be gigabytes and /tmp is often memory.
    spoolDir: path.resolve(env.SVC_DATA_DIR, "spool"),
  });
}
