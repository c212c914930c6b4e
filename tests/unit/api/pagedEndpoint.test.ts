/**
 * The paged-endpoint helper over a fake transport (no sockets): the filters reach the query by
 * their wire names, the path's parameters lead the arguments, `listAll` pages with the pager's
 * options and names the path in its errors, and a page-number endpoint's page size comes from
 * the pager, else the `limit` filter, else the declared default.
 */
import { z } from "zod";
import { PaginationLimitError } from "../../../provider/api";
import { numberedEndpoint, offsetEndpoint, queryOf } from "../../../provider/api/pagedEndpoint";
import type { ApiResponse, RequestSpec, Transport } from "../../../provider/api/transport";
import { apiPath, serializeQuery } from "../../../provider/api/url";

interface Item {
  readonly id: number;
}

const offsetPageSchema = z.object({ count: z.number().nullable(), results: z.array(z.object({ id: z.number() })) });
const numberedPageSchema = z.object({
  count: z.number().nullable(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(z.object({ id: z.number() })),
});

/** A transport over a list of `total` items (ids 0..total-1), paged by offset or by page number as asked; it records every request. */
function fakeTransport(total: number): { transport: Transport; requests: RequestSpec[] } {
  const requests: RequestSpec[] = [];
  const transport: Transport = {
    async request<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
      requests.push(spec);
      const q = (spec.query ?? {}) as Record<string, unknown>;
      const limit = Number(q["limit"] ?? 10);
      const start = q["page"] === undefined ? Number(q["offset"] ?? 0) : (Number(q["page"]) - 1) * limit;
      const results = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => ({ id: start + i }));
      const body = { count: total, next: start + limit < total ? "more" : null, previous: null, results };
      return { method: spec.method, path: spec.path, status: 200, data: spec.response?.parse(body) as T, header: () => undefined };
    },
  };
  return { transport, requests };
}

interface Filters {
  readonly orderBy?: string;
  readonly tagValue?: readonly string[];
  readonly limit?: number;
  readonly offset?: number;
}

const declareOffset = (t: Transport) =>
  offsetEndpoint<[projectId: number, regionId: number], Filters, Item>(t, {
    path: (projectId, regionId) => apiPath`/things/${projectId}/${regionId}`,
    query: { orderBy: "order_by", tagValue: "tag_value", limit: "limit", offset: "offset" },
    page: offsetPageSchema,
    idOf: (item) => item.id,
  });

describe("offset endpoints", () => {
  test("list: the path's parameters lead, the filters go out by their wire names, the options reach the transport", async () => {
    const { transport, requests } = fakeTransport(5);
    const signal = new AbortController().signal;
    const page = await declareOffset(transport).list(1, 76, { orderBy: "name.asc", tagValue: ["a", "b"], limit: 2 }, { signal });
    expect(page.results).toEqual([{ id: 0 }, { id: 1 }]);
    expect(requests).toEqual([
      expect.objectContaining({ method: "GET", path: "/things/1/76", query: { order_by: "name.asc", tag_value: ["a", "b"], limit: 2, offset: undefined }, options: { signal } }),
    ]);
  });

  test("list without filters sends none", async () => {
    const { transport, requests } = fakeTransport(3);
    await declareOffset(transport).list(1, 76);
    expect(requests).toHaveLength(1);
    expect(serializeQuery(requests[0]?.query)).toBe("");
  });

  test("listAll keeps the filters on every page and pages by the pager's size", async () => {
    const { transport, requests } = fakeTransport(5);
    const all = await declareOffset(transport).listAll(2, 3, { orderBy: "name.asc" }, { pageSize: 2 });
    expect(all.map((i) => i.id)).toEqual([0, 1, 2, 3, 4]);
    expect(requests.every((r) => r.path === "/things/2/3" && r.query?.["order_by"] === "name.asc")).toBe(true);
    expect(requests[0]?.query).toMatchObject({ limit: 2, offset: 0 });
  });

  test("listAll names the method and path when paging does not end", async () => {
    const { transport } = fakeTransport(100);
    const read = declareOffset(transport).listAll(1, 76, {}, { pageSize: 10, maxPages: 2 });
    await expect(read).rejects.toThrow(PaginationLimitError);
    await expect(read).rejects.toThrow(/^GET \/things\/1\/76 still announced a next page after 2 pages/);
  });
});

interface NumberedFilters {
  readonly search?: string;
  readonly page?: number;
  readonly limit?: number;
}

const declareNumbered = (t: Transport) =>
  numberedEndpoint<[], NumberedFilters, Item>(t, {
    path: () => "/numbered",
    query: { search: "search", page: "page", limit: "limit" },
    page: numberedPageSchema,
    idOf: (item) => item.id,
    defaultPageSize: 4,
  });

describe("page-number endpoints", () => {
  test.each([
    { name: "the declared default", params: {}, pager: {}, firstLimit: 4 },
    { name: "the limit filter", params: { limit: 3 }, pager: {}, firstLimit: 3 },
    { name: "the pager's pageSize over the limit filter", params: { limit: 3 }, pager: { pageSize: 5 }, firstLimit: 5 },
  ])("listAll's first page size is $name", async ({ params, pager, firstLimit }) => {
    const { transport, requests } = fakeTransport(9);
    const all = await declareNumbered(transport).listAll({ search: "x", ...params }, pager);
    expect(all.map((i) => i.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(requests[0]?.query).toEqual({ search: "x", page: 1, limit: firstLimit });
  });

  test("list passes the page number through", async () => {
    const { transport, requests } = fakeTransport(9);
    const page = await declareNumbered(transport).list({ page: 2, limit: 4 });
    expect(page.results.map((i) => i.id)).toEqual([4, 5, 6, 7]);
    expect(requests[0]).toMatchObject({ path: "/numbered", query: { page: 2, limit: 4 } });
  });
});

test("queryOf: the wire names in their declared order", () => {
  const names = { b: "b_wire", a: "a_wire" } as const;
  expect(Object.entries(queryOf<{ a?: number; b?: number }>(names, { a: 1, b: 2 }))).toEqual([
    ["b_wire", 2],
    ["a_wire", 1],
  ]);
});
