import { router } from "../../trpc.ts";
import { createTag } from "./create-tag.ts";
import { deleteTag } from "./delete-tag.ts";
import { getTag } from "./get-tag.ts";
import { listTags } from "./list-tags.ts";
import { updateTag } from "./update-tag.ts";

export const tagsRouter = router({ createTag, listTags, getTag, updateTag, deleteTag });
