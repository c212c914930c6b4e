/**
 * The orphaned-provider watch: it finds the engine's address among the plugin arguments, stays
 * quiet while the engine answers, and reports the engine gone once its port stops answering.
 * Driven by a real TCP server on loopback and the watch's own callbacks, not by sleeps.
 */
import * as net from "node:net";
import { engineAddressFrom, engineReachable, watchEngine } from "../../provider/engineWatch";

function listen(): Promise<{ server: net.Server; address: string }> {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => socket.destroy());
    server.listen(0, "127.0.0.1", () => resolve({ server, address: `127.0.0.1:${(server.address() as net.AddressInfo).port}` }));
  });
}

const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

test.each([
  [["127.0.0.1:4567"], "127.0.0.1:4567"],
  [["-v=9", "--logtostderr", "localhost:33001"], "localhost:33001"],
  [["[::1]:8080"], "[::1]:8080"],
  [["--tracing", "x"], undefined],
])("engineAddressFrom(%j) is %s", (args, expected) => {
  expect(engineAddressFrom(args)).toBe(expected);
});

test("engineReachable tells an open port from a closed one", async () => {
  const { server, address } = await listen();
  expect(await engineReachable(address)).toBe(true);
  await close(server);
  expect(await engineReachable(address)).toBe(false);
});

test("the watch stays quiet while the engine answers and reports it gone after it closes", async () => {
  const { server, address } = await listen();
  let closed = false;
  let checksWhileUp = 0;
  const gone = new Promise<{ why: string; closedFirst: boolean }>((resolve) => {
    watchEngine(address, { intervalMs: 20, failuresBeforeExit: 2, onGone: (why) => resolve({ why, closedFirst: closed }) });
  });
  // Let several check intervals pass against the live engine, then take the engine away.
  const probe = setInterval(() => {
    if (++checksWhileUp < 5) return;
    clearInterval(probe);
    closed = true;
    void close(server);
  }, 20);
  const { why, closedFirst } = await gone;
  expect(closedFirst).toBe(true);
  expect(why).toBe(`engine ${address} no longer answers`);
});

test("a stopped watch never reports", async () => {
  const { server, address } = await listen();
  const reasons: string[] = [];
  const stop = watchEngine(address, { intervalMs: 10, failuresBeforeExit: 1, onGone: (why) => reasons.push(why) });
  stop();
  await close(server);
  // The closed port would be noticed within a few intervals; a second watch proves time passed.
  await new Promise<void>((resolve) => watchEngine(address, { intervalMs: 10, failuresBeforeExit: 3, onGone: () => resolve() }));
  expect(reasons).toEqual([]);
});
