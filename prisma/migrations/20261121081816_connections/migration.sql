-- CreateEnum
CREATE TYPE "ConnectionStatus" AS ENUM ('active', 'needs_reauth', 'disconnected');

-- CreateEnum
CREATE TYPE "SyncTrigger" AS ENUM ('backfill', 'scheduled', 'notification', 'manual');

-- CreateEnum
CREATE TYPE "SyncRunStatus" AS ENUM ('queued', 'running', 'retrying', 'rate_limited', 'succeeded', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "instance_providers" (
    "provider" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "sealed_keys" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "instance_providers_pkey" PRIMARY KEY ("provider")
);

-- CreateTable
CREATE TABLE "tenant_provider_keys" (
    "tenant_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "sealed_keys" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "tenant_provider_keys_pkey" PRIMARY KEY ("tenant_id","provider")
);

-- CreateTable
CREATE TABLE "connections" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "status" "ConnectionStatus" NOT NULL DEFAULT 'active',
    "provider_user_id" TEXT,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sealed_tokens" TEXT,
    "access_expires_at" TIMESTAMPTZ(3),
    "token_version" INTEGER NOT NULL DEFAULT 0,
    "key_source" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "last_sync_at" TIMESTAMPTZ(3),
    "initial_backfill_at" TIMESTAMPTZ(3),
    "synced_through" TIMESTAMPTZ(3),
    "last_notification_at" TIMESTAMPTZ(3),
    "next_pull_at" TIMESTAMPTZ(3),
    "broken_reason" TEXT,
    "broken_action" TEXT,
    "broken_since" TIMESTAMPTZ(3),
    "retry_at" TIMESTAMPTZ(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "connected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnected_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consent_states" (
    "id" UUID NOT NULL,
    "state_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "sealed_verifier" TEXT NOT NULL,
    "redirect_uri" TEXT,
    "key_source" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consent_states_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connect_sessions" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "redirect_uri" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connect_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_runs" (
    "id" BIGSERIAL NOT NULL,
    "connection_id" BIGINT NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "trigger" "SyncTrigger" NOT NULL,
    "status" "SyncRunStatus" NOT NULL DEFAULT 'queued',
    "data_type" TEXT,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "window_end" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "objects_stored" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_subscriptions" (
    "id" BIGSERIAL NOT NULL,
    "connection_id" BIGINT NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_quotas" (
    "provider" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,
    "paused_until" TIMESTAMPTZ(3),

    CONSTRAINT "provider_quotas_pkey" PRIMARY KEY ("provider","bucket")
);

-- CreateIndex
CREATE INDEX "connections_provider_provider_user_id_idx" ON "connections"("provider", "provider_user_id");

-- CreateIndex
CREATE INDEX "connections_status_next_pull_at_idx" ON "connections"("status", "next_pull_at");

-- CreateIndex
CREATE UNIQUE INDEX "connections_user_id_provider_key" ON "connections"("user_id", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "consent_states_state_hash_key" ON "consent_states"("state_hash");

-- CreateIndex
CREATE INDEX "consent_states_user_id_provider_idx" ON "consent_states"("user_id", "provider");

-- CreateIndex
CREATE UNIQUE INDEX "connect_sessions_token_hash_key" ON "connect_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sync_runs_user_id_created_at_id_idx" ON "sync_runs"("user_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sync_runs_connection_id_status_idx" ON "sync_runs"("connection_id", "status");

-- CreateIndex
CREATE INDEX "sync_runs_status_next_attempt_at_idx" ON "sync_runs"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "push_subscriptions_connection_id_external_id_key" ON "push_subscriptions"("connection_id", "external_id");

-- AddForeignKey
ALTER TABLE "tenant_provider_keys" ADD CONSTRAINT "tenant_provider_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connections" ADD CONSTRAINT "connections_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_states" ADD CONSTRAINT "consent_states_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connect_sessions" ADD CONSTRAINT "connect_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
