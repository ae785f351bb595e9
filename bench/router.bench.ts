/**
 * Router benchmark: our three path matchers against peer routers, on one route
 * table shaped like the GitHub REST API and one fixed list of requests (static
 * hits, dynamic hits, deep dynamic hits, misses). Every case resolves the
 * method too and walks the whole request list per iteration.
 *
 * Run with `deno task bench` or `deno bench --allow-read --allow-env bench/router.bench.ts`.
 *
 * @module
 */

import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";
import FindMyWay from "find-my-way";
import { Memoirist } from "memoirist";
import { addRoute, createRouter, findRoute } from "rou3";
import { compiledCharMatcher } from "../http/server/router/compiled/matcher.ts";
import { radixMatcher } from "../http/server/router/radix/matcher.ts";
import { trieMatcher } from "../http/server/router/trie/matcher.ts";
import type { MatcherStrategy, PathMatcher, PatternSegment } from "../http/server/router/types.ts";

/** `METHODS /path`, GitHub REST API style; static routes come before the params they shadow. */
const table = `
GET /
GET,PATCH /user
GET,POST /user/repos
GET,POST,DELETE /user/emails
PATCH /user/email/visibility
GET /user/public_emails
GET /user/followers
GET /user/following
GET,PUT,DELETE /user/following/{username}
GET,POST /user/keys
GET,DELETE /user/keys/{key_id}
GET,POST /user/gpg_keys
GET,DELETE /user/gpg_keys/{gpg_key_id}
GET,POST /user/ssh_signing_keys
GET,POST,DELETE /user/social_accounts
GET /user/orgs
GET /user/issues
GET /user/teams
GET /user/starred
GET,PUT,DELETE /user/starred/{owner}/{repo}
GET /user/subscriptions
GET /user/installations
GET /user/installations/{installation_id}/repositories
GET /user/memberships/orgs
GET,PATCH /user/memberships/orgs/{org}
GET,POST /user/migrations
GET /user/migrations/{migration_id}
GET,DELETE /user/migrations/{migration_id}/archive
GET /user/blocks
GET,PUT,DELETE /user/blocks/{username}
GET,POST /user/codespaces
GET,PATCH,DELETE /user/codespaces/{codespace_name}
POST /user/codespaces/{codespace_name}/start
POST /user/codespaces/{codespace_name}/stop
GET /user/packages
GET,DELETE /user/packages/{package_type}/{package_name}
GET /user/packages/{package_type}/{package_name}/versions
GET /user/{account_id}
GET /users
GET /users/{username}
GET /users/{username}/repos
GET /users/{username}/followers
GET /users/{username}/following
GET /users/{username}/following/{target_user}
GET /users/{username}/gists
GET /users/{username}/keys
GET /users/{username}/gpg_keys
GET /users/{username}/ssh_signing_keys
GET /users/{username}/social_accounts
GET /users/{username}/orgs
GET /users/{username}/starred
GET /users/{username}/subscriptions
GET /users/{username}/events
GET /users/{username}/events/public
GET /users/{username}/events/orgs/{org}
GET /users/{username}/received_events
GET /users/{username}/received_events/public
GET /users/{username}/hovercard
GET /users/{username}/packages
GET /users/{username}/projects
GET /users/{username}/installation
GET /users/{username}/settings/billing/actions
GET /organizations
GET,PATCH,DELETE /orgs/{org}
GET,POST /orgs/{org}/repos
GET /orgs/{org}/members
GET,DELETE /orgs/{org}/members/{username}
GET,PUT,DELETE /orgs/{org}/memberships/{username}
GET /orgs/{org}/public_members
GET,PUT,DELETE /orgs/{org}/public_members/{username}
GET /orgs/{org}/outside_collaborators
GET,POST /orgs/{org}/invitations
GET /orgs/{org}/blocks
GET,PUT,DELETE /orgs/{org}/blocks/{username}
GET,POST /orgs/{org}/teams
GET,PATCH,DELETE /orgs/{org}/teams/{team_slug}
GET /orgs/{org}/teams/{team_slug}/members
GET /orgs/{org}/teams/{team_slug}/repos
GET,PUT,DELETE /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}
GET,POST /orgs/{org}/teams/{team_slug}/discussions
GET,PATCH,DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}
GET,POST /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments
GET,PATCH,DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}
GET,POST /orgs/{org}/hooks
GET,PATCH,DELETE /orgs/{org}/hooks/{hook_id}
POST /orgs/{org}/hooks/{hook_id}/pings
GET /orgs/{org}/hooks/{hook_id}/deliveries
GET /orgs/{org}/events
GET /orgs/{org}/installations
GET /orgs/{org}/issues
GET /orgs/{org}/actions/secrets
GET,PUT,DELETE /orgs/{org}/actions/secrets/{secret_name}
GET,POST /orgs/{org}/actions/variables
GET,PATCH,DELETE /orgs/{org}/actions/variables/{name}
GET /orgs/{org}/actions/runners
GET,DELETE /orgs/{org}/actions/runners/{runner_id}
GET /orgs/{org}/packages
GET,DELETE /orgs/{org}/packages/{package_type}/{package_name}
GET,POST /orgs/{org}/projects
GET,POST /orgs/{org}/migrations
GET /orgs/{org}/migrations/{migration_id}
GET /orgs/{org}/copilot/billing
GET /orgs/{org}/settings/billing/actions
GET /orgs/{org}/dependabot/alerts
GET /orgs/{org}/code-scanning/alerts
GET /orgs/{org}/secret-scanning/alerts
GET,POST /orgs/{org}/rulesets
GET,PUT,DELETE /orgs/{org}/rulesets/{ruleset_id}
GET,PATCH,DELETE /repos/{owner}/{repo}
GET,POST /repos/{owner}/{repo}/issues
GET /repos/{owner}/{repo}/issues/comments
GET,PATCH,DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}
GET,POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions
DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}
GET /repos/{owner}/{repo}/issues/events
GET /repos/{owner}/{repo}/issues/events/{event_id}
GET,PATCH /repos/{owner}/{repo}/issues/{issue_number}
GET,POST /repos/{owner}/{repo}/issues/{issue_number}/comments
GET /repos/{owner}/{repo}/issues/{issue_number}/events
GET,POST,PUT,DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels
DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}
PUT,DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock
GET,POST /repos/{owner}/{repo}/issues/{issue_number}/reactions
DELETE /repos/{owner}/{repo}/issues/{issue_number}/reactions/{reaction_id}
POST,DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees
GET /repos/{owner}/{repo}/issues/{issue_number}/timeline
GET,POST /repos/{owner}/{repo}/pulls
GET /repos/{owner}/{repo}/pulls/comments
GET,PATCH,DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}
GET,POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions
GET,PATCH /repos/{owner}/{repo}/pulls/{pull_number}
GET /repos/{owner}/{repo}/pulls/{pull_number}/commits
GET /repos/{owner}/{repo}/pulls/{pull_number}/files
GET,PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge
GET,POST /repos/{owner}/{repo}/pulls/{pull_number}/comments
POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies
GET,POST,DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers
GET,POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews
GET,PUT,DELETE /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}
GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments
PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals
POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/events
PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch
GET /repos/{owner}/{repo}/commits
GET /repos/{owner}/{repo}/commits/{ref}
GET,POST /repos/{owner}/{repo}/commits/{ref}/comments
GET /repos/{owner}/{repo}/commits/{ref}/status
GET /repos/{owner}/{repo}/commits/{ref}/statuses
GET /repos/{owner}/{repo}/commits/{ref}/check-runs
GET /repos/{owner}/{repo}/commits/{ref}/check-suites
GET /repos/{owner}/{repo}/commits/{ref}/pulls
GET /repos/{owner}/{repo}/comments
GET,PATCH,DELETE /repos/{owner}/{repo}/comments/{comment_id}
GET /repos/{owner}/{repo}/branches
GET /repos/{owner}/{repo}/branches/{branch}
GET,PUT,DELETE /repos/{owner}/{repo}/branches/{branch}/protection
POST /repos/{owner}/{repo}/branches/{branch}/rename
GET /repos/{owner}/{repo}/tags
GET,POST /repos/{owner}/{repo}/releases
GET /repos/{owner}/{repo}/releases/latest
POST /repos/{owner}/{repo}/releases/generate-notes
GET /repos/{owner}/{repo}/releases/tags/{tag}
GET,PATCH,DELETE /repos/{owner}/{repo}/releases/assets/{asset_id}
GET,PATCH,DELETE /repos/{owner}/{repo}/releases/{release_id}
GET /repos/{owner}/{repo}/releases/{release_id}/assets
GET /repos/{owner}/{repo}/contributors
GET /repos/{owner}/{repo}/languages
GET,PUT /repos/{owner}/{repo}/topics
GET /repos/{owner}/{repo}/stargazers
GET /repos/{owner}/{repo}/subscribers
GET,PUT,DELETE /repos/{owner}/{repo}/subscription
GET,POST /repos/{owner}/{repo}/forks
GET /repos/{owner}/{repo}/collaborators
GET,PUT,DELETE /repos/{owner}/{repo}/collaborators/{username}
GET /repos/{owner}/{repo}/collaborators/{username}/permission
GET,PUT,DELETE /repos/{owner}/{repo}/contents/{path}
GET /repos/{owner}/{repo}/readme
GET /repos/{owner}/{repo}/readme/{dir}
GET /repos/{owner}/{repo}/license
GET,POST /repos/{owner}/{repo}/labels
GET,PATCH,DELETE /repos/{owner}/{repo}/labels/{name}
GET,POST /repos/{owner}/{repo}/milestones
GET,PATCH,DELETE /repos/{owner}/{repo}/milestones/{milestone_number}
GET /repos/{owner}/{repo}/milestones/{milestone_number}/labels
GET,POST /repos/{owner}/{repo}/hooks
GET,PATCH,DELETE /repos/{owner}/{repo}/hooks/{hook_id}
POST /repos/{owner}/{repo}/hooks/{hook_id}/tests
POST /repos/{owner}/{repo}/hooks/{hook_id}/pings
GET,POST /repos/{owner}/{repo}/keys
GET,DELETE /repos/{owner}/{repo}/keys/{key_id}
GET,POST /repos/{owner}/{repo}/deployments
GET,DELETE /repos/{owner}/{repo}/deployments/{deployment_id}
GET,POST /repos/{owner}/{repo}/deployments/{deployment_id}/statuses
GET /repos/{owner}/{repo}/deployments/{deployment_id}/statuses/{status_id}
GET /repos/{owner}/{repo}/environments
GET,PUT,DELETE /repos/{owner}/{repo}/environments/{environment_name}
GET /repos/{owner}/{repo}/actions/runs
GET,DELETE /repos/{owner}/{repo}/actions/runs/{run_id}
GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs
GET,DELETE /repos/{owner}/{repo}/actions/runs/{run_id}/logs
POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun
POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel
GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts
GET /repos/{owner}/{repo}/actions/jobs/{job_id}
GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs
GET /repos/{owner}/{repo}/actions/workflows
GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}
GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs
POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches
PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable
PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable
GET /repos/{owner}/{repo}/actions/artifacts
GET,DELETE /repos/{owner}/{repo}/actions/artifacts/{artifact_id}
GET /repos/{owner}/{repo}/actions/secrets
GET /repos/{owner}/{repo}/actions/secrets/public-key
GET,PUT,DELETE /repos/{owner}/{repo}/actions/secrets/{secret_name}
GET,POST /repos/{owner}/{repo}/actions/variables
GET,PATCH,DELETE /repos/{owner}/{repo}/actions/variables/{name}
GET,DELETE /repos/{owner}/{repo}/actions/caches
GET /repos/{owner}/{repo}/actions/runners
POST /repos/{owner}/{repo}/check-runs
GET,PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}
GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations
POST /repos/{owner}/{repo}/check-suites
GET /repos/{owner}/{repo}/check-suites/{check_suite_id}
GET /repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs
POST /repos/{owner}/{repo}/check-suites/{check_suite_id}/rerequest
POST /repos/{owner}/{repo}/git/blobs
GET /repos/{owner}/{repo}/git/blobs/{file_sha}
POST /repos/{owner}/{repo}/git/commits
GET /repos/{owner}/{repo}/git/commits/{commit_sha}
POST /repos/{owner}/{repo}/git/refs
POST /repos/{owner}/{repo}/git/tags
GET /repos/{owner}/{repo}/git/tags/{tag_sha}
POST /repos/{owner}/{repo}/git/trees
GET /repos/{owner}/{repo}/git/trees/{tree_sha}
GET,POST,PUT,DELETE /repos/{owner}/{repo}/pages
GET,POST /repos/{owner}/{repo}/pages/builds
GET /repos/{owner}/{repo}/pages/builds/latest
GET /repos/{owner}/{repo}/pages/builds/{build_id}
GET /repos/{owner}/{repo}/stats/contributors
GET /repos/{owner}/{repo}/stats/commit_activity
GET /repos/{owner}/{repo}/stats/code_frequency
GET /repos/{owner}/{repo}/stats/participation
GET /repos/{owner}/{repo}/stats/punch_card
GET /repos/{owner}/{repo}/traffic/clones
GET /repos/{owner}/{repo}/traffic/views
GET /repos/{owner}/{repo}/traffic/popular/paths
GET /repos/{owner}/{repo}/traffic/popular/referrers
GET /repos/{owner}/{repo}/events
GET,PUT /repos/{owner}/{repo}/notifications
GET /repos/{owner}/{repo}/assignees
GET /repos/{owner}/{repo}/assignees/{assignee}
POST /repos/{owner}/{repo}/merges
POST /repos/{owner}/{repo}/dispatches
POST /repos/{owner}/{repo}/generate
POST /repos/{owner}/{repo}/transfer
GET,PUT,DELETE /repos/{owner}/{repo}/vulnerability-alerts
GET,PUT,DELETE /repos/{owner}/{repo}/automated-security-fixes
GET /repos/{owner}/{repo}/compare/{basehead}
GET /repos/{owner}/{repo}/tarball/{ref}
GET /repos/{owner}/{repo}/zipball/{ref}
GET /repos/{owner}/{repo}/invitations
PATCH,DELETE /repos/{owner}/{repo}/invitations/{invitation_id}
GET /repos/{owner}/{repo}/dependabot/alerts
GET,PATCH /repos/{owner}/{repo}/dependabot/alerts/{alert_number}
GET /repos/{owner}/{repo}/code-scanning/alerts
GET,PATCH /repos/{owner}/{repo}/code-scanning/alerts/{alert_number}
GET /repos/{owner}/{repo}/secret-scanning/alerts
GET,PATCH /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}
GET,POST /repos/{owner}/{repo}/rulesets
GET,PUT,DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}
GET,POST /repos/{owner}/{repo}/autolinks
GET,DELETE /repos/{owner}/{repo}/autolinks/{autolink_id}
GET,PATCH /repos/{owner}/{repo}/properties/values
GET /repos/{owner}/{repo}/codeowners/errors
GET /repos/{owner}/{repo}/community/profile
GET,POST /repos/{owner}/{repo}/projects
GET,PUT,PATCH,DELETE /repos/{owner}/{repo}/import
GET /repos/{owner}/{repo}/activity
GET /repos/{owner}/{repo}/dependency-graph/sbom
GET /repos/{owner}/{repo}/dependency-graph/compare/{basehead}
GET /networks/{owner}/{repo}/events
GET /repositories
GET /repositories/{repository_id}
GET,POST /gists
GET /gists/public
GET /gists/starred
GET,PATCH,DELETE /gists/{gist_id}
GET,POST /gists/{gist_id}/comments
GET,PATCH,DELETE /gists/{gist_id}/comments/{comment_id}
GET /gists/{gist_id}/commits
GET,POST /gists/{gist_id}/forks
GET,PUT,DELETE /gists/{gist_id}/star
GET /gists/{gist_id}/{sha}
GET /teams/{team_id}
GET /teams/{team_id}/members
GET,PATCH,DELETE /projects/{project_id}
GET,POST /projects/{project_id}/columns
GET,PATCH,DELETE /projects/columns/{column_id}
GET,POST /projects/columns/{column_id}/cards
GET,PATCH,DELETE /projects/columns/cards/{card_id}
POST /projects/columns/cards/{card_id}/moves
GET,PUT /notifications
GET,PATCH,DELETE /notifications/threads/{thread_id}
GET,PUT,DELETE /notifications/threads/{thread_id}/subscription
GET /app
GET /app/installations
GET,DELETE /app/installations/{installation_id}
POST /app/installations/{installation_id}/access_tokens
GET,PATCH /app/hook/config
GET /app/hook/deliveries
POST /app-manifests/{code}/conversions
GET /installation/repositories
GET /marketplace_listing/plans
GET /search/code
GET /search/commits
GET /search/issues
GET /search/labels
GET /search/repositories
GET /search/topics
GET /search/users
GET /licenses
GET /licenses/{license}
GET /gitignore/templates
GET /gitignore/templates/{name}
GET /codes_of_conduct
GET /codes_of_conduct/{key}
GET /emojis
GET /events
GET /feeds
GET /issues
GET /meta
GET /octocat
GET /rate_limit
GET /versions
GET /zen
POST /markdown
POST /markdown/raw
`;

/** One route per verb and path; `id` is what every router stores and returns. */
interface Route {
  readonly id: number;
  readonly method: string;
  readonly path: string;
}

const routes: Route[] = table.trim().split("\n").flatMap((line) => {
  const [methods, path] = line.split(" ");
  return methods.split(",").map((method) => ({ id: 0, method, path }));
}).map((route, id) => ({ ...route, id }));

/** The fixed request list: `METHOD /path`. */
const requests = `
GET /user
GET /user/repos
POST /user/repos
GET /emojis
GET /rate_limit
GET /search/repositories
GET /gists/public
GET /gitignore/templates
GET /notifications
GET /
GET /users/octocat
GET /users/octocat/repos
GET /orgs/denoland/repos
GET /repos/denoland/deno
PATCH /repos/denoland/deno
GET /gists/aa5a315d61ae9438b18d
GET /gists/aa5a315d61ae9438b18d/57a7f021a713b1c5a6a199b54cc514735d2d462f
GET /user/583231
GET /licenses/mit
GET /repos/denoland/deno/issues/12345/comments
POST /repos/denoland/deno/issues/12345/labels
GET /repos/denoland/deno/pulls/678/reviews/90/comments
DELETE /repos/denoland/deno/issues/comments/42/reactions/7
GET /repos/denoland/deno/actions/runs/987654/jobs
GET /repos/denoland/deno/releases/tags/v2.0.0
PUT /orgs/denoland/teams/core/repos/denoland/deno
GET /repos/denoland/deno/commits/abc123/check-runs
GET /nope
GET /repos/denoland
GET /repos/denoland/deno/unknown
GET /users/octocat/repos/extra
DELETE /user/repos
GET /repos/denoland/deno/issues/12345/comments/9/x
GET /teams
`.trim().split("\n").map((line) => line.split(" ") as [string, string]);

const methods = requests.map(([method]) => method);
const paths = requests.map(([, path]) => path);
/**
 * A server gets each pathname as a new string (Deno's `URL` slices it out of
 * the href), whose hash V8 has not computed yet. Slicing these once per lookup
 * reproduces that; reusing `paths` instead lets every `Map` or object lookup on
 * the whole path hit V8's cached string hash.
 */
const padded = paths.map((path) => "#" + path);

// Our matchers: one definition per path, its value a method table.

type MethodTable = Record<string, number>;

function segmentsOf(path: string): PatternSegment[] {
  if (path === "/") return [];
  return path.slice(1).split("/").map((part) =>
    part.startsWith("{")
      ? { kind: "param", name: part.slice(1, -1) }
      : { kind: "static", value: part }
  );
}

function ours(strategy: MatcherStrategy, routes: readonly Route[]): PathMatcher<MethodTable> {
  const byPath = new Map<string, MethodTable>();
  for (const { id, method, path } of routes) {
    const methodTable = byPath.get(path) ?? {};
    methodTable[method] = id;
    byPath.set(path, methodTable);
  }
  return strategy([...byPath].map(([path, value]) => ({ segments: segmentsOf(path), value })));
}

/** Peers write params as `:name`. */
const colon = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

function honoRegExpRouter(routes: readonly Route[]): RegExpRouter<number> {
  const router = new RegExpRouter<number>();
  for (const { id, method, path } of routes) router.add(method, colon(path), id);
  return router;
}

/**
 * Hono's RegExpRouter rejects (UnsupportedPathError) a param next to a static
 * sibling for the same method, which the GitHub shape is full of. This keeps,
 * in order, every route it accepts on top of the routes kept so far.
 */
function regExpRouterSubset(routes: readonly Route[]): Route[] {
  const kept: Route[] = [];
  for (const route of routes) {
    try {
      honoRegExpRouter([...kept, route]);
      kept.push(route);
    } catch {
      // Rejected: left out of the subset.
    }
  }
  return kept;
}

/** One router under test: `find` answers one request (route id or -1), `run` the whole list. */
interface Contender {
  readonly name: string;
  find(method: string, path: string): number;
  run(): number;
}

/**
 * The contenders for one route table. Each `run` is its own loop, written out,
 * so that no call site inside a loop is shared between routers (only between
 * the groups, which reuse these closures with other instances of the same router).
 */
function contenders(
  routes: readonly Route[],
  fresh: boolean,
  withRegExpRouter: boolean,
): Contender[] {
  const trie = ours(trieMatcher, routes);
  const radix = ours(radixMatcher, routes);
  const compiled = ours(compiledCharMatcher, routes);
  const honoTrie = new TrieRouter<number>();
  const rou3 = createRouter<number>();
  const findMyWay = FindMyWay();
  const memoirist = new Memoirist<number>();
  for (const { id, method, path } of routes) {
    honoTrie.add(method, colon(path), id);
    addRoute(rou3, method, colon(path), id);
    findMyWay.on(method as "GET", colon(path), () => {}, { id });
    memoirist.add(method, colon(path), id);
  }
  const list: Contender[] = [
    {
      name: "trie (ours, default)",
      find: (method, path) => trie.match(path)?.value[method] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = trie.match(path);
          if (match !== undefined && match.value[methods[i]] !== undefined) {
            found += match.params.length + 1;
          }
        }
        return found;
      },
    },
    {
      name: "radix (ours)",
      find: (method, path) => radix.match(path)?.value[method] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = radix.match(path);
          if (match !== undefined && match.value[methods[i]] !== undefined) {
            found += match.params.length + 1;
          }
        }
        return found;
      },
    },
    {
      name: "compiled (ours, new Function)",
      find: (method, path) => compiled.match(path)?.value[method] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = compiled.match(path);
          if (match !== undefined && match.value[methods[i]] !== undefined) {
            found += match.params.length + 1;
          }
        }
        return found;
      },
    },
    {
      name: "hono TrieRouter",
      find: (method, path) => honoTrie.match(method, path)[0][0]?.[0] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const [handlers] = honoTrie.match(methods[i], path);
          if (handlers.length > 0) found += handlers.length;
        }
        return found;
      },
    },
    {
      name: "rou3",
      find: (method, path) => findRoute(rou3, method, path)?.data ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = findRoute(rou3, methods[i], path);
          if (match !== undefined) found += (match.params === undefined ? 0 : 1) + 1;
        }
        return found;
      },
    },
    {
      name: "find-my-way",
      find: (method, path) =>
        (findMyWay.find(method as "GET", path)?.store as { id: number } | undefined)?.id ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = findMyWay.find(methods[i] as "GET", path);
          if (match !== null) found += (match.params === undefined ? 0 : 1) + 1;
        }
        return found;
      },
    },
    {
      name: "memoirist",
      find: (method, path) => memoirist.find(method, path)?.store ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const match = memoirist.find(methods[i], path);
          if (match !== null) found += (match.params === undefined ? 0 : 1) + 1;
        }
        return found;
      },
    },
  ];
  if (withRegExpRouter) {
    const honoRegExp = honoRegExpRouter(routes);
    list.push({
      name: "hono RegExpRouter",
      find: (method, path) => honoRegExp.match(method, path)[0][0]?.[0] ?? -1,
      run() {
        let found = 0;
        for (let i = 0; i < paths.length; i++) {
          const path = fresh ? padded[i].slice(1) : paths[i];
          const [handlers, stash] = honoRegExp.match(methods[i], path);
          if (handlers.length > 0) found += (stash?.length ?? 0) + 1;
        }
        return found;
      },
    });
  }
  return list;
}

/** Keeps results observable so that no lookup is optimised away. */
let sink = 0;

/**
 * Checks that every contender finds the same route (or none) for every request,
 * or the numbers would mean nothing, then registers one bench per contender.
 */
function register(group: string, list: readonly Contender[]): void {
  const [reference] = list;
  const expected = requests.map(([method, path]) => reference.find(method, path));
  if (!expected.includes(-1) || expected.every((id) => id === -1)) {
    throw new Error(`${group}: the request list must mix hits and misses`);
  }
  for (const contender of list) {
    requests.forEach(([method, path], i) => {
      const found = contender.find(method, path);
      if (found !== expected[i]) {
        throw new Error(
          `${group}: ${contender.name} disagrees on ${method} ${path}: ${found}, ${reference.name} found ${
            expected[i]
          }`,
        );
      }
    });
  }
  for (const contender of list) {
    Deno.bench({
      name: contender.name,
      group,
      baseline: contender === reference,
      fn: () => {
        sink += contender.run();
      },
    });
  }
}

const subset = regExpRouterSubset(routes);

register(`${routes.length} routes, fresh path strings`, contenders(routes, true, false));
register(`${routes.length} routes, reused path strings`, contenders(routes, false, false));
register(
  `${subset.length} routes RegExpRouter accepts, fresh path strings`,
  contenders(subset, true, true),
);
