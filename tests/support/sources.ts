// The repository's sources as data for tests/architecture_test.ts: the files
// under some folders, the relative imports of a file, the names a module
// exports (types included, `export *` followed) and the Deno.test bodies that
// end early, green, when a program they need is missing. Pure functions over
// texts, so that each check can be tried on a fixture first.
import ts from "typescript";

/** One relative import of a file, resolved to a repository path. */
export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

/** The `.ts` files under `entries` (files or folders of the repository), by path. */
export async function sourcesUnder(entries: readonly string[]): Promise<Map<string, string>> {
  const root = new URL("../../", import.meta.url);
  const texts = new Map<string, string>();
  const walk = async (path: string) => {
    const info = await Deno.stat(new URL(path, root));
    if (info.isFile) {
      if (path.endsWith(".ts")) texts.set(path, await Deno.readTextFile(new URL(path, root)));
      return;
    }
    for await (const entry of Deno.readDir(new URL(path, root))) {
      await walk(`${path}/${entry.name}`);
    }
  };
  for (const entry of entries) await walk(entry);
  return texts;
}

/** A relative specifier resolved against the file that writes it. */
export function resolve(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

const parse = (path: string, text: string) =>
  ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);

/** The relative imports and re-exports of a source text: `import("...")` calls and types included. */
export function importsOf(path: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const add = (specifier: ts.Node | undefined, typeOnly: boolean) => {
    if (specifier === undefined || !ts.isStringLiteral(specifier)) return;
    if (!specifier.text.startsWith(".")) return;
    edges.push({ from: path, to: resolve(path, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allTypes = clause !== undefined && clause.name === undefined &&
        bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, clause?.isTypeOnly === true || allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allTypes = clause !== undefined && ts.isNamedExports(clause) &&
        clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, node.isTypeOnly || allTypes);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      add(ts.isLiteralTypeNode(argument) ? argument.literal : undefined, true);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      // A module loaded on first use is still a module this one depends on.
      add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(path, text));
  return edges;
}

const exported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  ts.getModifiers(node)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ===
    true;

/**
 * The names the module at `path` exports, types included, following
 * `export * from` through `texts` (a module missing from `texts` adds nothing).
 */
export function exportsOf(
  path: string,
  texts: ReadonlyMap<string, string>,
  seen: Set<string> = new Set(),
): Set<string> {
  const names = new Set<string>();
  const text = texts.get(path);
  if (text === undefined || seen.has(path)) return names;
  seen.add(path);
  for (const statement of parse(path, text).statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      const specifier = statement.moduleSpecifier;
      if (clause === undefined && specifier !== undefined && ts.isStringLiteral(specifier)) {
        for (const name of exportsOf(resolve(path, specifier.text), texts, seen)) {
          if (name !== "default") names.add(name);
        }
      } else if (clause !== undefined && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add(element.name.text);
      } else if (clause !== undefined) {
        names.add(clause.name.text);
      }
    } else if (ts.isExportAssignment(statement)) {
      names.add("default");
    } else if (exported(statement)) {
      const isDefault = ts.getModifiers(statement as ts.HasModifiers)?.some((modifier) =>
        modifier.kind === ts.SyntaxKind.DefaultKeyword
      );
      if (isDefault) names.add("default");
      else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
        }
      } else {
        const name = (statement as ts.DeclarationStatement).name;
        if (name !== undefined && ts.isIdentifier(name)) names.add(name.text);
      }
    }
  }
  return names;
}

/** Words that say a test depends on a program of the machine. */
const NEEDS = /missing|unavailable|installed|chromium|redis|haproxy|tmux/i;

/** A `Deno.test` call: its name, its options object (when given one) and its body. */
interface TestCall {
  readonly call: ts.CallExpression;
  readonly name: string;
  readonly options?: ts.ObjectLiteralExpression;
  readonly body?: ts.Node;
}

/** The value of `key` in an object literal: a property's initializer, or a method itself. */
function propertyOf(object: ts.ObjectLiteralExpression, key: string): ts.Node | undefined {
  const property = object.properties.find((each) =>
    each.name !== undefined && ts.isIdentifier(each.name) && each.name.text === key
  );
  if (property === undefined) return undefined;
  return ts.isPropertyAssignment(property) ? property.initializer : property;
}

/** Every `Deno.test(...)` of a source file, in any of its call forms. */
function testsOf(source: ts.SourceFile): TestCall[] {
  const tests: TestCall[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.getText(source) === "Deno.test") {
      const options = node.arguments.find(ts.isObjectLiteralExpression);
      const named = options === undefined ? undefined : propertyOf(options, "name");
      const written = named ?? (options === node.arguments[0] ? undefined : node.arguments[0]);
      const name = written === undefined
        ? "(unnamed)"
        : ts.isStringLiteralLike(written)
        ? written.text
        : written.getText(source);
      const fn = [...node.arguments, options && propertyOf(options, "fn")].find((each) =>
        each !== undefined &&
        (ts.isArrowFunction(each) || ts.isFunctionExpression(each) || ts.isMethodDeclaration(each))
      ) as ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration | undefined;
      tests.push({ call: node, name, options, body: fn?.body });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return tests;
}

/**
 * The Deno.test bodies of a test file that return early, and so pass green,
 * when a program they need is missing: a `return` under an `if` whose
 * condition speaks of something missing (or of a value read from such a
 * check, like `chromiumPath()`), or whose branch prints a message first.
 */
export function earlyReturns(path: string, text: string): string[] {
  const source = parse(path, text);
  // Values read from a check for a program: `const path = chromiumPath()`.
  const checks = new Set<string>();
  const collect = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) &&
      node.initializer !== undefined && NEEDS.test(node.initializer.getText(source))
    ) checks.add(node.name.text);
    ts.forEachChild(node, collect);
  };
  collect(source);
  const aboutMissing = (condition: ts.Expression) => {
    if (NEEDS.test(condition.getText(source))) return true;
    let found = false;
    const look = (node: ts.Node) => {
      if (ts.isIdentifier(node) && checks.has(node.text)) found = true;
      ts.forEachChild(node, look);
    };
    look(condition);
    return found;
  };
  const printsFirst = (branch: ts.Node) => /\bconsole\.\w+\(/.test(branch.getText(source));
  const returns = (branch: ts.Statement) =>
    ts.isReturnStatement(branch) ||
    (ts.isBlock(branch) && branch.statements.some((statement) => ts.isReturnStatement(statement)));
  const offences: string[] = [];
  for (const test of testsOf(source)) {
    const scan = (node: ts.Node) => {
      // A nested function's `return` leaves that function, not the test.
      if (ts.isFunctionLike(node)) return;
      if (
        ts.isIfStatement(node) && returns(node.thenStatement) &&
        (aboutMissing(node.expression) || printsFirst(node.thenStatement))
      ) {
        offences.push(
          `${path}: "${test.name}" returns early, green, when ${node.expression.getText(source)}`,
        );
      }
      ts.forEachChild(node, scan);
    };
    if (test.body !== undefined) ts.forEachChild(test.body, scan);
  }
  return offences;
}

/**
 * The tests of a file ignored on a condition (`ignore: missing`) when nothing
 * outside the tests prints why: an ignored test must say what it waits for.
 */
export function unexplainedIgnores(path: string, text: string): string[] {
  const source = parse(path, text);
  const tests = testsOf(source);
  const insideTests = new Set<ts.Node>(tests.map((test) => test.call));
  let explained = false;
  const visit = (node: ts.Node) => {
    if (insideTests.has(node)) return;
    if (
      ts.isCallExpression(node) &&
      /^console\.(warn|log|error|info)$/.test(node.expression.getText(source))
    ) {
      explained = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (explained) return [];
  return tests.filter((test) => {
    const ignore = test.options === undefined ? undefined : propertyOf(test.options, "ignore");
    return ignore !== undefined && ignore.kind !== ts.SyntaxKind.FalseKeyword &&
      ignore.kind !== ts.SyntaxKind.TrueKeyword;
  }).map((test) => `${path}: "${test.name}" is ignored on a condition, and nothing says why`);
}
