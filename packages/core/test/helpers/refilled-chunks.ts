/**
 * `bytes` in chunks of `size`, each copied into the same buffer, which is filled again for the
 * next chunk once the consumer asks for it: the way an export's writer hands on its chunks.
 */
export async function* refilledChunks(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.alloc(size);
  for (let from = 0; from < bytes.length; from += size) {
    const length = bytes.copy(buffer, 0, from, from + size);
    yield buffer.subarray(0, length);
  }
}
