/**
 * The app that sent a person to a page, as the pages name it: its tenant's name (the console and
 * the API check names, but `svc admin tenant create` and SVC_BOOTSTRAP_TENANT take any). A blank
 * name is null: the pages then speak of "the app that sent you here".
 */
export function appNameOf(tenantName: string | null | undefined): string | null {
  const name = tenantName?.trim() ?? "";
  return name === "" ? null : name;
}
