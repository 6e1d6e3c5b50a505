FROM python:3.11-slim
WORKDIR /srv
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY app ./app
RUN pip install --no-cache-dir -e .
COPY alembic.ini ./
COPY migrations ./migrations
COPY scenarios ./scenarios
COPY templates ./templates
COPY static ./static
RUN mkdir -p /srv/data
EXPOSE 8000
CMD ["sh", "-c", "alembic upgrade head && uvicorn app.main:app --host $HOST --port $PORT"]
