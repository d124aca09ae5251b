# The gptnt harness (workers, suite submission) for docker-compose.yml. Built from the repo root:
#   docker compose build worker
# Editable install so configs/, missions/, prompts/ and manual/ resolve inside /app.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY gptnt gptnt
COPY services services
COPY configs configs
COPY missions missions
COPY prompts prompts
COPY manual manual
RUN pip install --no-cache-dir -e '.[manual]'
# Records go to /app/runs (a volume in docker-compose.yml).
CMD ["gptnt", "--help"]
