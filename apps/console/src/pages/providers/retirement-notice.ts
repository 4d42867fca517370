import type { InstanceProvider } from "./instance-provider.ts";

/** What the provider page says of a provider whose API its owner turns down; null when it does not. */
export function retirementNotice(retirement: InstanceProvider["retirement"], now: Date): { title: string; text: string } | null {
  if (!retirement) return null;
  const retired = now.getTime() >= Date.parse(`${retirement.turned_off_on}T00:00:00Z`);
  const move = `Move users to ${retirement.replacement}: connect each user to ${retirement.replacement}, then disconnect this provider (docs/providers.md).`;
  if (retired) {
    return {
      title: `The ${retirement.api} was turned off on ${retirement.turned_off_on}`,
      text: `Its connections no longer sync. ${move}`,
    };
  }
  return {
    title: `The ${retirement.api} is announced to be turned off on ${retirement.turned_off_on}`,
    text: `Support ends on ${retirement.support_ends_on}; pulls fail from ${retirement.turned_off_on}. ${move}`,
  };
}
