import { Button } from "@mantine/core";
import { fileDate } from "../format.ts";

/** Saves the decrypted FHIR Bundle as `share-<date>.json` (a Blob made in the browser; nothing is fetched). */
export function DownloadButton({ json }: { json: string }) {
  return (
    <Button
      onClick={() => {
        const url = URL.createObjectURL(new Blob([json], { type: "application/fhir+json" }));
        const anchor = document.createElement("a");
        anchor.href = url;
        anchor.download = `share-${fileDate()}.json`;
        document.body.append(anchor);
        anchor.click();
        anchor.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      }}
    >
      Download FHIR Bundle
    </Button>
  );
}
