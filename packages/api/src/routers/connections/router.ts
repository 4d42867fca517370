import { router } from "../../trpc.ts";
import { createConnectSession } from "./create-connect-session.ts";
import { disconnectConnection } from "./disconnect-connection.ts";
import { listConnections } from "./list-connections.ts";
import { startConnection } from "./start-connection.ts";

export const connectionsRouter = router({ startConnection, listConnections, disconnectConnection, createConnectSession });
