-- AlterTable
ALTER TABLE "consent_states" ADD COLUMN     "sealed_connect_token" TEXT;
