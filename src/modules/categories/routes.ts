import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { data, Deleted, IdParams, list, authErrors, withConflict, withNotFound, keyRouteDoc } from '../shared/model'
import { Category, CategoryCreate, CategoryListQuery, CategoryUpdate } from './model'
import { createCategory, deleteCategory, listCategories, updateCategory } from './service'

const doc = keyRouteDoc('Catalog')

// Bodies declare `parse: 'json'`: a global parser hook given as a function (the body-size
// limit) hides the content type from the OpenAPI generator, which then documents no request body.
export const categoryRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/categories' })
    .use(authed(deps))
    .get(
      '', ({ auth, query }) => listCategories(ctxFor(deps, auth.store), query), {
      query: CategoryListQuery,
      response: { 200: list(Category), ...authErrors },
      detail: doc('List categories, ordered by position', 'categories:read'),
    })
    .post(
      '',
      ({ auth, body, set }) => {
        set.status = 201
        return { data: createCategory(ctxFor(deps, auth.store), body) }
      },
      { parse: 'json', body: CategoryCreate, response: { 201: data(Category), ...withConflict }, detail: doc('Create a category', 'categories:write') },
    )
    .put('/:id', ({ auth, params, body }) => ({ data: updateCategory(ctxFor(deps, auth.store), params.id, body) }), {
      params: IdParams,
      parse: 'json',
      body: CategoryUpdate,
      response: { 200: data(Category), ...withConflict },
      detail: doc('Update a category (partial)', 'categories:write'),
    })
    .delete('/:id', ({ auth, params }) => ({ data: deleteCategory(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Delete a category; its products keep existing with no category', 'categories:write'),
    })
