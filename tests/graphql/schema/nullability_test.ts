// GraphQL nullability: a leaf's field is nullable, so one failing leaf nulls its
// own field and never wipes its siblings; namespace fields stay non-null (they
// cannot fail themselves).
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { HttpError } from "@ramify/api/tree";
import { createGraphQLServer, projectGraphQL, toSDL } from "@ramify/api/graphql";

const Project = z.object({ id: z.string(), name: z.string() }).meta({ title: "Project" });
const readOnly = { tags: { readOnly: true } };
const tree = api({
  health: op(() => "ok", readOnly, { output: z.string() }),
  projects: api({
    list: op(() => [{ id: "1", name: "Ramify" }], readOnly, { output: z.array(Project) }),
    read: op(
      ({ projectId }: { projectId: string }) => {
        throw new HttpError(404, `No project ${projectId}`);
      },
      readOnly,
      { input: z.object({ projectId: z.string() }), output: Project },
    ),
  }),
});

Deno.test("nullability: one failing field keeps its siblings", async () => {
  const server = createGraphQLServer(tree);
  const result = await server.execute({
    query: '{ health projects { list { id } read(projectId: "nope") { id } } }',
  });
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
    health: "ok",
    projects: { list: [{ id: "1" }], read: null },
  });
  assert.deepEqual(result.errors?.map((e) => [e.path, e.extensions.code]), [
    [["projects", "read"], "NOT_FOUND"],
  ]);
});

Deno.test("nullability: leaf fields are nullable, namespaces and the value types keep their !", () => {
  const sdl = toSDL(tree);
  assert.match(sdl, /^ {2}projects: ProjectsQuery!$/m);
  assert.match(sdl, /^ {2}health: String$/m);
  assert.match(sdl, /^ {2}list: \[Project!\]$/m);
  const read = projectGraphQL(tree).fields.find((field) => field.name === "read")!;
  assert.equal(read.type, "Project");
  assert.equal(read.resultType, "Project!");
});
