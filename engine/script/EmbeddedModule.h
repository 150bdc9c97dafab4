/// \file
/// The `_boundscope` module built into the embedding executable (the CLI, the app, the tests):
/// the engine bindings plus what only the embedded interpreter needs (the output sinks that
/// capture a script's sys.stdout and sys.stderr).
#pragma once

namespace bs::script {

/// Makes `import _boundscope` find the built-in module. Call before the interpreter starts.
void registerEmbeddedModule();

} // namespace bs::script
