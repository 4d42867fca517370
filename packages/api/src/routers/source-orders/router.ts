import { router } from "../../trpc.ts";
import { deleteSourceOrder } from "./delete-source-order.ts";
import { getResolvedSourceOrder } from "./get-resolved-source-order.ts";
import { listSourceOrders } from "./list-source-orders.ts";
import { setSourceOrder } from "./set-source-order.ts";

export const sourceOrdersRouter = router({ listSourceOrders, setSourceOrder, deleteSourceOrder, getResolvedSourceOrder });
