// runner.mjs — @neo4j/graphql's side of bench/peers: executes GraphQL
// queries in-process with graphql-js's graphql() (no HTTP server) against
// the schema in schema.graphql, and times them.
//
// Connection: PEERS_NEO4J_URI, PEERS_NEO4J_USER, PEERS_NEO4J_PASSWORD,
// PEERS_NEO4J_DATABASE (environment only: a password never goes on a
// command line). The driver keeps neo4j-driver's defaults, as the Go side
// keeps the Go driver's.
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on
// stdout. After start-up it writes {"ready": true, "versions": {...}}.
//   {"op": "query", "query": "...", "variables": {...}}  → {"data": {...}}
//   {"op": "time", "query": "...", "variables": {...}, "n": 10}
//                                                        → {"ns": [...]} (one duration per run)
//   {"op": "cypher", "query": "...", "variables": {...}} → {"cypher": "...", "params": {...}}
//     the statement @neo4j/graphql sends for the query (integers as
//     numbers), for PROFILE and for timing it on the Go driver
// A GraphQL error answers {"error": "..."}; the Go side fails loudly on it.
// DEBUG=@neo4j/graphql:* prints the Cypher @neo4j/graphql runs (stderr).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Neo4jGraphQL } from "@neo4j/graphql";
import { graphql } from "graphql";
import neo4j from "neo4j-driver";

// version reads an installed package's version (not every package
// exports its package.json).
const version = (pkg) =>
  JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version;

const env = (name) => {
  const v = process.env[name];
  if (v === undefined) {
    throw new Error(`runner.mjs: ${name} is not set`);
  }
  return v;
};

const driver = neo4j.driver(
  env("PEERS_NEO4J_URI"),
  neo4j.auth.basic(env("PEERS_NEO4J_USER"), env("PEERS_NEO4J_PASSWORD")),
);
const database = process.env.PEERS_NEO4J_DATABASE || undefined;
const typeDefs = readFileSync(new URL("./schema.graphql", import.meta.url), "utf8");
const schema = await new Neo4jGraphQL({ typeDefs, driver }).getSchema();
await driver.verifyConnectivity({ database });

// run executes one query as a server would for one request: a fresh
// context each time (@neo4j/graphql keeps per-request state in it).
async function run(query, variables) {
  const res = await graphql({
    schema,
    source: query,
    variableValues: variables,
    contextValue: database ? { sessionConfig: { database } } : {},
  });
  if (res.errors?.length) {
    throw new Error(res.errors.map((e) => e.message).join("; "));
  }
  return res.data;
}

// cypher runs a query once in a read transaction of its own, handed to
// @neo4j/graphql as its execution context (anything with run() is a
// transaction to it), and returns the last statement it ran.
async function cypher(query, variables) {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  const tx = session.beginTransaction();
  let last;
  const recorder = {
    run(text, params) {
      if (!text.includes("dbms.components()")) {
        last = { cypher: text, params: plain(params) };
      }
      return tx.run(text, params);
    },
  };
  try {
    const res = await graphql({
      schema,
      source: query,
      variableValues: variables,
      contextValue: { executionContext: recorder },
    });
    if (res.errors?.length) {
      throw new Error(res.errors.map((e) => e.message).join("; "));
    }
  } finally {
    await tx.rollback();
    await session.close();
  }
  if (!last) {
    throw new Error("@neo4j/graphql ran no statement");
  }
  return last;
}

// plain turns the driver's Integers into numbers, for JSON.
function plain(v) {
  if (neo4j.isInt(v)) {
    return v.toNumber();
  }
  if (Array.isArray(v)) {
    return v.map(plain);
  }
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

const write = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

write({
  ready: true,
  versions: {
    node: process.version,
    "@neo4j/graphql": version("@neo4j/graphql"),
    graphql: version("graphql"),
    "neo4j-driver": version("neo4j-driver"),
  },
});

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) {
    continue;
  }
  try {
    const req = JSON.parse(line);
    if (req.op === "query") {
      write({ data: await run(req.query, req.variables) });
    } else if (req.op === "cypher") {
      write(await cypher(req.query, req.variables));
    } else if (req.op === "time") {
      const ns = [];
      for (let i = 0; i < req.n; i++) {
        const start = process.hrtime.bigint();
        await run(req.query, req.variables);
        ns.push(Number(process.hrtime.bigint() - start));
      }
      write({ ns });
    } else {
      write({ error: `unknown op ${JSON.stringify(req.op)} (want query, time or cypher)` });
    }
  } catch (err) {
    write({ error: String(err?.message ?? err) });
  }
}
await driver.close();
