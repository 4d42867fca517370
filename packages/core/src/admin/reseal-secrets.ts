import type { Database } from "@svc/db";
import type { Sealer } from "../platform/index.ts";
import { countSealedWithOtherKeys, findSealedWithKey, replaceSealedValue, SEALED_COLUMNS, type SealedColumn } from "./sealed-column-repository.ts";

const BATCH = 500;

export interface ResealCount {
  kind: SealedColumn["kind"];
  /** Values moved from a previous key to the current one. */
  resealed: number;
  /** Values still sealed with another key afterwards: keys this instance lacks (rotate those secrets), or written meanwhile. */
  remaining: number;
}

/**
 * The last step of a key rotation: every stored secret sealed with one of the previous keys
 * (SVC_PREVIOUS_ENCRYPTION_KEYS) is opened and sealed again with the current key, so the
 * previous keys can then be dropped. Safe to run while the service runs, and to run again.
 */
export async function resealSecrets(db: Database, sealer: Sealer, previousKeyIds: readonly string[]): Promise<ResealCount[]> {
  const counts: ResealCount[] = [];
  for (const sealedColumn of SEALED_COLUMNS) {
    let resealed = 0;
    for (const keyId of previousKeyIds.filter((id) => id !== sealer.keyId)) {
      const unopened: string[] = [];
      for (;;) {
        const batch = await findSealedWithKey(db, sealedColumn, keyId, unopened, BATCH);
        if (batch.length === 0) break;
        for (const sealed of batch) {
          let plaintext: string;
          try {
            plaintext = sealer.open(sealed);
          } catch {
            unopened.push(sealed); // a corrupt value: counted in `remaining`, never retried in this run
            continue;
          }
          resealed += await replaceSealedValue(db, sealedColumn, sealed, sealer.seal(plaintext));
        }
      }
    }
    counts.push({ kind: sealedColumn.kind, resealed, remaining: await countSealedWithOtherKeys(db, sealedColumn, sealer.keyId) });
  }
  return counts;
}
