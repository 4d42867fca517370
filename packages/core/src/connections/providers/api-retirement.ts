/**
 * A provider API that its owner turns down, with the dates as announced and the provider of
 * this build that replaces it. Connections of such a provider keep their health as it is;
 * they carry a warning (health.warning) and the instance's provider page says it.
 */
export interface ApiRetirement {
  /** The API by its owner's name, e.g. `Fitbit Web API`. */
  api: string;
  /** Day (YYYY-MM-DD) the owner ends support: still served, no more fixes. */
  supportEndsOn: string;
  /** Day (YYYY-MM-DD, UTC) the owner turns the API off: its requests fail from then on. */
  turnedOffOn: string;
  /** Slug of the provider of this build that replaces it. */
  replacement: string;
  /** Where the owner announced the dates. */
  source: string;
}

/** The warning on a connection that uses a retiring or retired API (GET /v1/users/{id}/connections, health.warning). */
export interface ApiRetirementWarning {
  /** `retiring_api` before the day the API is turned off, `retired_api` from that day on. */
  code: "retiring_api" | "retired_api";
  message: string;
  turned_off_on: string;
  replacement: string;
}

/** The warning for a connection of a provider whose API retires; null when it does not. */
export function apiRetirementWarning(retirement: ApiRetirement | undefined, now: Date): ApiRetirementWarning | null {
  if (!retirement) return null;
  const retired = now.getTime() >= Date.parse(`${retirement.turnedOffOn}T00:00:00Z`);
  const message = retired
    ? `The ${retirement.api} was turned off on ${retirement.turnedOffOn}: this connection no longer syncs; connect the user to ${retirement.replacement} instead.`
    : `The ${retirement.api} is announced to be turned off on ${retirement.turnedOffOn}: connect the user to ${retirement.replacement} before then.`;
  return { code: retired ? "retired_api" : "retiring_api", message, turned_off_on: retirement.turnedOffOn, replacement: retirement.replacement };
}
