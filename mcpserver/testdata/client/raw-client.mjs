// A second client of `ragforge-plan serve` on the official MCP TypeScript
// SDK, for tests that check what client.mjs summarizes away: it prints each
// listed tool whole (name, description, inputSchema, annotations) and each
// call's result whole, as the SDK returned them.
//
//   node raw-client.mjs STEPS.json COMMAND [ARG...]   the client starts the server (stdio)
//
// STEPS.json is a list of steps: {"op": "list"} or {"op": "call", "name",
// "arguments"}, run in order. It prints one JSON array, one entry per step:
// {"op": "list", "tools": [...]} or {"op": "call", "name", "result"}.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [stepsFile, command, ...args] = process.argv.slice(2);
const steps = JSON.parse(readFileSync(stepsFile, "utf8"));

const client = new Client({ name: "ragforge-raw-test-client", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" }));

const out = [];
for (const step of steps) {
  switch (step.op) {
    case "list":
      out.push({ op: "list", tools: (await client.listTools()).tools });
      break;
    case "call":
      out.push({ op: "call", name: step.name, result: await client.callTool({ name: step.name, arguments: step.arguments ?? {} }) });
      break;
    default:
      throw new Error(`unknown step ${step.op}`);
  }
}
console.log(JSON.stringify(out));
await client.close();
