"""The words players read, in their language: catalogues, command names, refusals."""
