import { router } from "../../trpc.ts";
import { createUser } from "./create-user.ts";
import { createUserToken } from "./create-user-token.ts";
import { deleteUser } from "./delete-user.ts";
import { getUser } from "./get-user.ts";
import { listUsers } from "./list-users.ts";

export const usersRouter = router({ createUser, listUsers, getUser, deleteUser, createUserToken });
