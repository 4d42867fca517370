// Checks a webhook request of svc (Standard Webhooks) with Go's standard library only.
//
//	WEBHOOK_SECRET=whsec_… WEBHOOK_ID=… WEBHOOK_TIMESTAMP=… WEBHOOK_SIGNATURE=… go run verify_webhook.go body.json
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

const tolerance = 5 * time.Minute

// Event is the body of every webhook of svc (the test route adds "test": true).
type Event struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// VerifyWebhook returns the event when svc signed exactly these bytes with secret less than
// 5 minutes from now, and an error otherwise. body is the body as received, before any JSON
// parsing; header is the request's http.Header (names in any case).
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time) (*Event, error) {
	id := header.Get("webhook-id")
	timestamp := header.Get("webhook-timestamp")
	signature := header.Get("webhook-signature")
	if id == "" || timestamp == "" || signature == "" {
		return nil, errors.New("a webhook-id, webhook-timestamp or webhook-signature header is missing")
	}
	if strings.Trim(timestamp, "0123456789") != "" {
		return nil, errors.New("webhook-timestamp is not a number of seconds")
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return nil, errors.New("webhook-timestamp is not a number of seconds")
	}
	if age := now.Sub(time.Unix(seconds, 0)); age > tolerance || age < -tolerance {
		return nil, errors.New("webhook-timestamp is more than 5 minutes away from now")
	}

	// The HMAC key is the base64-decoded part of the secret after `whsec_`.
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil, errors.New("the secret holds no key")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))

	// The header is a space-separated list of `v1,<base64>`; one match is enough.
	for _, entry := range strings.Split(signature, " ") {
		version, given, found := strings.Cut(entry, ",")
		if found && version == "v1" && hmac.Equal([]byte(given), expected) {
			var event Event
			if err := json.Unmarshal(body, &event); err != nil {
				return nil, fmt.Errorf("the body is not JSON: %w", err)
			}
			return &event, nil
		}
	}
	return nil, errors.New("no v1 signature matches")
}

// Command line: the raw body in a file, the secret and the headers in the environment;
// WEBHOOK_NOW (Unix seconds) checks a recorded request against the time it arrived.
func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: verify_webhook body.json")
		os.Exit(2)
	}
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	header := http.Header{}
	header.Set("webhook-id", os.Getenv("WEBHOOK_ID"))
	header.Set("webhook-timestamp", os.Getenv("WEBHOOK_TIMESTAMP"))
	header.Set("webhook-signature", os.Getenv("WEBHOOK_SIGNATURE"))
	now := time.Now()
	if at := os.Getenv("WEBHOOK_NOW"); at != "" {
		seconds, err := strconv.ParseInt(at, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "WEBHOOK_NOW is not a number of seconds")
			os.Exit(2)
		}
		now = time.Unix(seconds, 0)
	}
	event, err := VerifyWebhook(os.Getenv("WEBHOOK_SECRET"), header, body, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rejected:", err)
		os.Exit(1)
	}
	if event.Type != "" {
		fmt.Println("verified", event.Type)
	} else {
		fmt.Println("verified")
	}
}
