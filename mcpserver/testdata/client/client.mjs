// A client of `ragforge-plan serve` built on the official MCP TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package-lock.json), so the server is
// tested against a client nobody in this project wrote.
//
//   node client.mjs STEPS.json stdio COMMAND [ARG...]   the client starts the server
//   node client.mjs STEPS.json http URL [TOKEN]         the server is running
//
// STEPS.json is a list of steps: {"op": "list"}, {"op": "call", "name",
// "arguments", "progress": bool} or {"op": "concurrent", "calls": [call...]}
// (sent at once). It prints one JSON array with what the client saw for each
// step, for the Go test to check; a failed connection prints
// {"connectError": "...", "code": HTTP status or null} and exits 3.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [stepsFile, kind, ...rest] = process.argv.slice(2);
const steps = JSON.parse(readFileSync(stepsFile, "utf8"));

let transport;
if (kind === "stdio") {
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: process.env, stderr: "inherit" });
} else if (kind === "http") {
  const opts = rest[1] ? { requestInit: { headers: { Authorization: `Bearer ${rest[1]}` } } } : {};
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), opts);
} else {
  console.error(`unknown transport ${kind}`);
  process.exit(2);
}

const client = new Client({ name: "ragforge-test-client", version: "1.0.0" });
try {
  await client.connect(transport);
} catch (e) {
  console.log(JSON.stringify({ connectError: String(e), code: e.code ?? null }));
  process.exit(3);
}

async function call(step) {
  const progress = [];
  const opts = step.progress ? { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true } : {};
  const r = await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined, opts);
  return {
    name: step.name,
    isError: r.isError === true,
    structuredContent: r.structuredContent ?? null,
    text: (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n"),
    progress,
  };
}

const out = [];
for (const step of steps) {
  switch (step.op) {
    case "list": {
      const r = await client.listTools();
      out.push({ op: "list", tools: r.tools.map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint === true })) });
      break;
    }
    case "call":
      out.push({ op: "call", ...(await call(step)) });
      break;
    case "concurrent":
      out.push({ op: "concurrent", results: await Promise.all(step.calls.map(call)) });
      break;
    default:
      throw new Error(`unknown step ${step.op}`);
  }
}
console.log(JSON.stringify(out));
await client.close();
