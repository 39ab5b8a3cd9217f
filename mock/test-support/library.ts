/**
 * A small foreign document for the rule tests (rules.e2e.test.ts): authors, books and loans, CRUD each, with the
 * answers a real API documents (201, 404, 409, 422). Rules are added by each test, in the document or an overlay.
 */
const errorAnswer = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

function collection(name: string, thing: string, id: string): Record<string, Record<string, unknown>> {
  const ref = { $ref: `#/components/schemas/${thing}` };
  const json = { 'application/json': { schema: ref } };
  return {
    [`/${name}`]: {
      get: { operationId: `list${thing}s`, responses: { '200': { description: 'all', content: { 'application/json': { schema: { type: 'array', items: ref } } } } } },
      post: {
        operationId: `create${thing}`,
        requestBody: { required: true, content: json },
        responses: { '201': { description: 'created', content: json }, '400': errorAnswer, '404': errorAnswer, '409': errorAnswer, '422': errorAnswer },
      },
    },
    [`/${name}/{${id}}`]: {
      parameters: [{ name: id, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: `get${thing}`, responses: { '200': { description: 'one', content: json }, '404': errorAnswer } },
      patch: {
        operationId: `update${thing}`,
        requestBody: { required: true, content: json },
        responses: { '200': { description: 'updated', content: json }, '400': errorAnswer, '404': errorAnswer, '409': errorAnswer, '422': errorAnswer },
      },
      delete: { operationId: `delete${thing}`, responses: { '204': { description: 'gone' }, '404': errorAnswer, '409': errorAnswer } },
    },
  };
}

export function libraryDocument(extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = { ...collection('authors', 'Author', 'authorId'), ...collection('books', 'Book', 'bookId'), ...collection('loans', 'Loan', 'loanId') };
  for (const [path, stated] of Object.entries(extensions)) paths[path] = { ...paths[path], ...stated };
  return {
    openapi: '3.0.3',
    info: { title: 'Library', version: '1.0.0' },
    paths,
    components: {
      schemas: {
        Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
        Author: {
          type: 'object',
          required: ['name', 'email'],
          properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', minLength: 1 }, email: { type: 'string', minLength: 3 } },
        },
        Book: {
          type: 'object',
          required: ['title', 'authorId'],
          properties: {
            id: { type: 'integer', readOnly: true },
            title: { type: 'string', minLength: 1 },
            authorId: { type: 'integer', minimum: 1 },
            status: { type: 'string', enum: ['draft', 'published', 'withdrawn'], default: 'draft' },
            copies: { type: 'integer', minimum: 0 },
          },
        },
        Loan: {
          type: 'object',
          required: ['bookId', 'member'],
          properties: { id: { type: 'integer', readOnly: true }, bookId: { type: 'integer', minimum: 1 }, member: { type: 'string', minLength: 1 }, state: { type: 'string', enum: ['open', 'returned'] } },
        },
      },
    },
  };
}
