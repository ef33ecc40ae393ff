"""The two frameworks the page could be built on, each as its least app, to weigh them
(docs/architecture.md): one page at ``/``, served on 127.0.0.1:PORT until killed.

    python frameworks.py aiohttp|starlette PORT

The table's guest, powered on again with a Zero 2 W's 512 MB, starts it, asks for ``/``
once and reads the process's resident memory (harness.py's the_frameworks). Run by the
image's /opt/frameworks venv, which holds both."""

import sys


def aiohttp_app(port: int) -> None:
    from aiohttp import web

    async def page(request: web.Request) -> web.Response:
        return web.Response(text="Robinson", content_type="text/html")

    app = web.Application()
    app.router.add_get("/", page)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


def starlette_app(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse("Robinson")

    app = Starlette(routes=[Route("/", page)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


if __name__ == "__main__":
    {"aiohttp": aiohttp_app, "starlette": starlette_app}[sys.argv[1]](int(sys.argv[2]))
