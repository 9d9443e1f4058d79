// What the site and RTK Query's own modules use of @reduxjs/toolkit, and nothing else (see react-router.mjs: a
// shared federation module is built whole; this file is provided under the name `@reduxjs/toolkit` instead, still one
// singleton per page). Two lists: the site's imports (shared-contracts/src/api, the remotes), and what
// @reduxjs/toolkit/query and /query/react import from `@reduxjs/toolkit` (they consume this shared module, so it must
// carry their names too). A new runtime import from '@reduxjs/toolkit' must be added here, or the build fails.
export {
  // The site.
  combineSlices,
  configureStore,
  createSlice,
  // RTK Query's imports from '@reduxjs/toolkit' (dist/query/rtk-query.modern.mjs, dist/query/react/…).
  SHOULD_AUTOBATCH,
  combineReducers,
  createAction,
  createAsyncThunk,
  createNextState,
  createSelector,
  formatProdErrorMessage,
  isAction,
  isAllOf,
  isAnyOf,
  isAsyncThunkAction,
  isFulfilled,
  isPending,
  isPlainObject,
  isRejected,
  isRejectedWithValue,
  nanoid,
  prepareAutoBatched,
} from 'hr-redux-toolkit-implementation';
