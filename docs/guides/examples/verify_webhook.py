# Checks a webhook request of svc (Standard Webhooks) with Python's standard library only.
#   WEBHOOK_SECRET=whsec_… WEBHOOK_ID=… WEBHOOK_TIMESTAMP=… WEBHOOK_SIGNATURE=… python3 verify_webhook.py body.json
import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import sys
import time

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    pass


def verify_webhook(secret, headers, raw_body, now=None):
    """Returns the event when svc signed exactly these bytes with `secret` less than 5 minutes
    from `now` (Unix seconds); raises WebhookVerificationError otherwise. `headers` is a mapping
    with lower-case names (Flask's and Django's request.headers ignore case); `raw_body` is the
    body as received (bytes), before any JSON parsing."""
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signature = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signature:
        raise WebhookVerificationError("a webhook-id, webhook-timestamp or webhook-signature header is missing")
    if not re.fullmatch(r"[0-9]+", timestamp):
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds")
    now = time.time() if now is None else now
    if abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("webhook-timestamp is more than 5 minutes away from now")

    # The HMAC key is the base64-decoded part of the secret after `whsec_`.
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"))
    except binascii.Error:
        key = b""
    if not key:
        raise WebhookVerificationError("the secret holds no key")
    signed = f"{msg_id}.{timestamp}.".encode() + raw_body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())

    # The header is a space-separated list of `v1,<base64>`; one match is enough.
    for entry in signature.split(" "):
        version, _, given = entry.partition(",")
        if version == "v1" and hmac.compare_digest(given.encode(), expected):
            return json.loads(raw_body)
    raise WebhookVerificationError("no v1 signature matches")


# Command line: the raw body in a file, the secret and the headers in the environment;
# WEBHOOK_NOW (Unix seconds) checks a recorded request against the time it arrived.
if __name__ == "__main__":
    env = os.environ
    headers = {name: env.get(variable) for name, variable in [
        ("webhook-id", "WEBHOOK_ID"), ("webhook-timestamp", "WEBHOOK_TIMESTAMP"), ("webhook-signature", "WEBHOOK_SIGNATURE")]}
    with open(sys.argv[1], "rb") if len(sys.argv) > 1 else sys.stdin.buffer as body:
        raw_body = body.read()
    now = float(env["WEBHOOK_NOW"]) if env.get("WEBHOOK_NOW") else None
    try:
        event = verify_webhook(env.get("WEBHOOK_SECRET", ""), headers, raw_body, now)
    except WebhookVerificationError as error:
        print(f"rejected: {error}", file=sys.stderr)
        sys.exit(1)
    event_type = event.get("type") if isinstance(event, dict) else None
    print(f"verified {event_type}" if isinstance(event_type, str) else "verified")
