"""The playground's own settings, read like the bot's: the environment, then `.env`."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class PlaygroundSettings(BaseSettings):
    """What `make run` needs to choose between Discord and the playground, and the page's port."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, description="With a token, `make run` runs the bot on Discord instead."
    )
    playground_port: int = Field(
        default=8080,
        ge=0,
        le=65535,
        description="The web page's port on 127.0.0.1; 0 or a taken port: any free one.",
    )
