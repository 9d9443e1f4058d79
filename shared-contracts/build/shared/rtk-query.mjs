// What @reduxjs/toolkit/query/react uses of @reduxjs/toolkit/query (it consumes this shared module), provided under
// the name `@reduxjs/toolkit/query` (see redux-toolkit.mjs). The site imports only types from it today; a new
// runtime import from '@reduxjs/toolkit/query' must be added here, or the build fails.
export {
  // @reduxjs/toolkit/query/react's imports (dist/query/react/rtk-query-react.modern.mjs).
  QueryStatus,
  buildCreateApi,
  copyWithStructuralSharing,
  coreModule,
  setupListeners,
  skipToken,
} from 'hr-rtk-query-implementation';
