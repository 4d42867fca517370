import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isLoopbackAddress, isPublicAddress } from "../src/index.ts";

describe("isPublicAddress", () => {
  const refused = [
    ["10.0.0.1", "private 10/8"],
    ["10.255.255.255", "private 10/8"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.254", "private 172.16/12"],
    ["192.168.1.1", "private 192.168/16"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback 127/8"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT 100.64/10"],
    ["100.127.255.254", "carrier-grade NAT 100.64/10"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network 0/8"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["192.0.2.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["240.0.0.1", "reserved 240/4"],
    ["::1", "IPv6 loopback"],
    ["::", "IPv6 unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["febf::1", "IPv6 link-local (end of fe80::/10)"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["ff02::1", "IPv6 multicast"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["64:ff9b::10.0.0.1", "NAT64 of a private IPv4"],
    ["64:ff9b::127.0.0.1", "NAT64 of loopback"],
    ["64:ff9b:1::a00:1", "local-use NAT64 prefix"],
    ["2002:a00:1::1", "6to4 of 10.0.0.1"],
    ["2002:7f00:1::1", "6to4 of 127.0.0.1"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001:db8::1", "documentation"],
    ["::127.0.0.1", "IPv4-compatible (deprecated)"],
    ["100::1", "discard prefix"],
    ["fec0::1", "site-local (deprecated)"],
    ["not-an-ip", "not an address"],
    ["", "empty"],
    ["localhost", "a name, not an address"],
  ] as const;

  it.each(refused)("refuses %s (%s)", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  const allowed = [
    ["8.8.8.8", "public IPv4"],
    ["1.1.1.1", "public IPv4"],
    ["172.32.0.1", "just outside 172.16/12"],
    ["100.128.0.1", "just outside 100.64/10"],
    ["2606:4700::1111", "public IPv6"],
    ["2a00:1450:4001:80b::200e", "public IPv6"],
    ["::ffff:8.8.8.8", "IPv4-mapped public"],
    ["64:ff9b::8.8.8.8", "NAT64 of a public IPv4"],
    ["2002:808:808::1", "6to4 of 8.8.8.8"],
  ] as const;

  it.each(allowed)("allows %s (%s)", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("isLoopbackAddress", () => {
  it.each(["127.0.0.1", "127.255.0.1", "::1", "::ffff:127.0.0.1"])("%s is loopback", (ip) => {
    expect(isLoopbackAddress(ip)).toBe(true);
  });
  it.each(["10.0.0.1", "::", "8.8.8.8", "localhost"])("%s is not", (ip) => {
    expect(isLoopbackAddress(ip)).toBe(false);
  });
});

describe("checkWebhookUrl", () => {
  const strict = { allowPrivate: false };
  const lenient = { allowPrivate: true };

  it.each([
    "https://hooks.example.com/svc",
    "https://hooks.example.com:8443/in?tenant=a#ignored",
    "https://8.8.8.8/hook",
    "https://[2606:4700::1111]/hook",
    // A name is resolved on every connection, so an internal-looking one passes here.
    "https://internal.corp/hook",
  ])("accepts %s", (url) => {
    expect(checkWebhookUrl(url, strict)).toEqual({ ok: true });
  });

  it.each([
    ["http://hooks.example.com/", "the URL must use https"],
    ["ftp://hooks.example.com/", "the URL must use https"],
    ["not a url", "the URL is not a valid absolute URL"],
    ["/relative/path", "the URL is not a valid absolute URL"],
    ["https://user:secret@hooks.example.com/", "the URL must not contain a user name or password"],
    ["https://user@hooks.example.com/", "the URL must not contain a user name or password"],
    ["https://10.0.0.1/", "the URL points at a private, loopback or link-local address"],
    ["https://169.254.169.254/latest/meta-data", "the URL points at a private, loopback or link-local address"],
    ["https://[::1]/", "the URL points at a private, loopback or link-local address"],
    ["https://[::ffff:127.0.0.1]/", "the URL points at a private, loopback or link-local address"],
    ["https://[fd00::1]/", "the URL points at a private, loopback or link-local address"],
    ["https://0x7f000001/", "the URL points at a private, loopback or link-local address"],
    ["https://2130706433/", "the URL points at a private, loopback or link-local address"],
    ["https://localhost/", "the URL points at a private, loopback or link-local address"],
    ["https://api.localhost./", "the URL points at a private, loopback or link-local address"],
    [`https://hooks.example.com/${"a".repeat(2030)}`, "the URL is longer than 2048 characters"],
  ])("refuses %s without allowPrivate", (url, reason) => {
    expect(checkWebhookUrl(url, strict)).toEqual({ ok: false, reason });
  });

  it("accepts a URL of exactly 2048 characters", () => {
    const base = "https://hooks.example.com/";
    expect(checkWebhookUrl(base + "a".repeat(2048 - base.length), strict)).toEqual({ ok: true });
  });

  it.each([
    "https://10.0.0.1/",
    "https://localhost:8443/",
    "http://localhost:3000/hooks",
    "http://127.0.0.1:3000/",
    "http://127.1.2.3/",
    "http://[::1]:3000/",
    "http://app.localhost/",
  ])("accepts %s with allowPrivate", (url) => {
    expect(checkWebhookUrl(url, lenient)).toEqual({ ok: true });
  });

  it.each([
    "http://10.0.0.1/",
    "http://192.168.1.10:8080/",
    "http://hooks.example.com/",
    "http://8.8.8.8/",
  ])("refuses plain http to %s even with allowPrivate", (url) => {
    expect(checkWebhookUrl(url, lenient)).toEqual({
      ok: false,
      reason: "http is allowed only for loopback hosts (localhost, 127.0.0.0/8, ::1)",
    });
  });

  it("refuses credentials with allowPrivate too", () => {
    expect(checkWebhookUrl("http://a:b@localhost/", lenient)).toMatchObject({ ok: false });
  });
});
