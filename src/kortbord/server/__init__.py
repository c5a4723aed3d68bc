"""The web table: FastAPI + Uvicorn, SQLAlchemy storage, WebSocket play (``docs/protocol.md``).

``create_app(database_url)`` builds the app; ``kortbord serve`` runs it.
"""

from kortbord.server.app import create_app

__all__ = ["create_app"]
