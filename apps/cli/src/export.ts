import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { AppError, defaultFhirCodeSystemBase, type FhirExportType, findActiveUser, getTenantSummary, writeFhirExport } from "@svc/core";
import { withDatabase } from "./database.ts";
import type { CliEnv } from "./env.ts";

/** What `svc export` writes. */
export interface ExportCommandOptions {
  tenant: string;
  user: string | undefined;
  types: FhirExportType[];
  since: Date | null;
  out: string;
}

/** The server's address when SVC_PUBLIC_URL is unset (its default port), for the code systems of the Observations. */
const DEFAULT_PUBLIC_URL = "http://127.0.0.1:8080";

/**
 * `svc export`: writes the FHIR NDJSON files of a tenant's active users (or one user) into a
 * local folder, with the engine of the fhir-export job (the same lines and files, up to now),
 * and prints each file. Files are `<Type>-<n>.ndjson`; an existing one is never overwritten.
 */
export async function exportCommand(env: CliEnv, options: ExportCommandOptions): Promise<void> {
  const codeSystemBase = env.SVC_FHIR_CODE_SYSTEM_BASE?.replace(/\/+$/, "") ?? defaultFhirCodeSystemBase(env.SVC_PUBLIC_URL ?? DEFAULT_PUBLIC_URL);
  await mkdir(options.out, { recursive: true });
  const started = performance.now();
  let resources = 0;
  let bytes = 0;
  await withDatabase(env, async (db) => {
    await getTenantSummary(db, options.tenant);
    if (options.user !== undefined && !(await findActiveUser(db, options.tenant, options.user))) {
      throw new AppError("not_found", "No such active user in this tenant.");
    }
    const scope = {
      tenantId: options.tenant,
      userId: options.user ?? null,
      resourceTypes: options.types,
      since: options.since,
      transactionTime: new Date(),
      codeSystemBase,
    };
    await writeFhirExport(db, scope, null, folderTarget(options.out), {
      async onPart(part) {
        resources += part.resourceCount;
        bytes += part.byteSize;
        console.log(`${part.storageKey}  ${part.resourceType}  ${part.resourceCount} resources  ${part.byteSize} bytes`);
      },
    });
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`${resources} resources, ${bytes} bytes in ${path.resolve(options.out)} (${seconds.toFixed(1)} s)`);
}

/** Files in a folder: `<Type>-<n>.ndjson`, created new. */
function folderTarget(folder: string) {
  return {
    async write(fileNumber: number, type: FhirExportType, body: AsyncIterable<Uint8Array>) {
      const name = `${type}-${fileNumber}.ndjson`;
      let byteSize = 0;
      async function* counted() {
        for await (const chunk of body) {
          byteSize += chunk.byteLength;
          yield chunk;
        }
      }
      // highWaterMark 0: each chunk is written before the next is asked for (ExportTarget.write).
      await pipeline(counted, createWriteStream(path.join(folder, name), { flags: "wx", flush: true, highWaterMark: 0 }));
      return { storageKey: name, byteSize };
    },
  };
}
