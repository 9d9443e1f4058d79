// Types of `import.meta.glob` for the vitest suites (vitest runs on Vite); the build itself never uses it.
/// <reference types="vite/client" />
