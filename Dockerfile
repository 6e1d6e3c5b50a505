# The Overlord game server.  Build and run (README.md, "Docker"):
#   docker build -t overlord .
#   docker run -p 8000:8000 -v overlord-data:/srv/data overlord
# PostgreSQL + Redis and several workers: -e DATABASE_URL=postgresql+asyncpg://user:pass@db/overlord
#   -e REDIS_URL=redis://redis:6379/0 -e WORKERS=4 (see README.md).
# The two commands below are the ones CI runs (.ci/run): scripts/install.sh with the lock
# file, then `overlord-server serve`; change them together.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH \
    HOST=0.0.0.0 \
    PORT=8000 \
    WORKERS=1
# DATABASE_URL defaults to SQLite in /srv/data (the volume); REDIS_URL is unset
# (in-process fan-out, one worker).

WORKDIR /srv
COPY . .
RUN scripts/install.sh /opt/venv requirements.lock \
 && useradd --system --uid 10001 --home-dir /srv --shell /usr/sbin/nologin overlord \
 && mkdir -p /srv/data && chown overlord:overlord /srv/data

USER overlord
VOLUME ["/srv/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["overlord-server", "health"]
CMD ["overlord-server", "serve"]
