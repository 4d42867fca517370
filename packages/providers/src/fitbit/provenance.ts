/** Data a Fitbit tracker measured on the wrist. */
export const FITBIT_TRACKER = { source: "fitbit", source_name: "Fitbit", on_body: true } as const;
