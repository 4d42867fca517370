-- CreateTable
CREATE TABLE "tenant_providers" (
    "tenant_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_providers_pkey" PRIMARY KEY ("tenant_id","provider")
);

-- AddForeignKey
ALTER TABLE "tenant_providers" ADD CONSTRAINT "tenant_providers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
