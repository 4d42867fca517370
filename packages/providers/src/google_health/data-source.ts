// A data point's `dataSource` (platform, device, application, recording method) as svc's provenance.
import { isObject, textOf, type JsonObject } from "./json.ts";

export interface Provenance {
  source: string | null;
  source_name: string | null;
  device: string | null;
  device_model: string | null;
  on_body: boolean;
  was_user_entered: boolean;
  metadata: Record<string, unknown>;
}

/** The platforms whose data a Fitbit or Google device recorded, by the vendor svc names. */
const PLATFORM_SOURCES: Readonly<Record<string, string>> = {
  FITBIT: "fitbit",
  FITBIT_WEB_API: "fitbit",
  FIT: "google",
  NEST: "google",
  GOOGLE_WEB_API: "google",
};

/** Form factors worn on the body. */
const WORN = new Set(["FITNESS_BAND", "WATCH", "RING", "CHEST_STRAP", "HEAD_MOUNTED"]);

export function provenanceOf(point: JsonObject): Provenance {
  const dataSource = isObject(point.dataSource) ? point.dataSource : {};
  const device = isObject(dataSource.device) ? dataSource.device : {};
  const application = isObject(dataSource.application) ? dataSource.application : {};
  const platform = textOf(dataSource.platform, 40);
  const formFactor = textOf(device.formFactor, 40);
  const recordingMethod = textOf(dataSource.recordingMethod, 40);
  const packageName = textOf(application.packageName, 200);
  const displayName = textOf(device.displayName, 100);
  const manufacturer = textOf(device.manufacturer, 100);
  const metadata: Record<string, unknown> = {};
  if (platform) metadata.platform = platform;
  if (recordingMethod) metadata.recording_method = recordingMethod;
  if (formFactor) metadata.form_factor = formFactor;
  if (manufacturer) metadata.device_manufacturer = manufacturer;
  return {
    source: platform && Object.hasOwn(PLATFORM_SOURCES, platform) ? (PLATFORM_SOURCES[platform] ?? null) : null,
    source_name: packageName ?? "Google Health",
    device: displayName,
    device_model: displayName,
    on_body: formFactor !== null && WORN.has(formFactor),
    was_user_entered: recordingMethod === "MANUAL",
    metadata,
  };
}
