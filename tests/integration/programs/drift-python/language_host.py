"""A Python language host for tests/integration/drift.test.ts, built on the Python SDK's own
inline-program server (pulumi.automation._server.LanguageServer).

Why: the CLI here has no `pulumi-language-python` (its Go module is not served to this
machine), and the drift command previews projects from their directories, as users keep them,
which needs a language host. This one serves `Run` by executing the project's `__main__.py`
the way the real host does, through the SDK's inline server. Started by the engine as
`pulumi-language-python [flags] <engine address>`; prints its port and serves until killed.
"""
import os
import runpy
import sys
from concurrent import futures

import grpc
from pulumi.automation._server import LanguageServer
from pulumi.runtime.proto import language_pb2_grpc


class ProjectLanguageServer(LanguageServer):
    def __init__(self):
        super().__init__(lambda: None)

    def Run(self, request, context):
        main = os.path.join(request.pwd, request.program or ".", "__main__.py")
        self.program = lambda: runpy.run_path(main, run_name="__main__")
        return super().Run(request, context)


def main():
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=[("grpc.max_receive_message_length", 400 * 1024 * 1024)])
    language_pb2_grpc.add_LanguageRuntimeServicer_to_server(ProjectLanguageServer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        # The engine ends its plugins with SIGINT when the run is over.
        server.stop(0)


if __name__ == "__main__":
    sys.exit(main())
