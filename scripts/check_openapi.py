"""Checks Sources/ParlaAPI/openapi.yaml (or the file given) says what it means.

1. openapi-spec-validator checks it against the OpenAPI 3.1 meta-schema.
2. Every object of the document is walked, and any key its kind of object
   does not define is refused. The meta-schema alone lets a Schema Object
   carry any key (JSON Schema 2020-12 ignores unknown keywords), so a
   description in a flow mapping that YAML cut at a comma,
   `{ type: string, description: 10 to 128 characters, not the email. }`,
   passes it with a stray key "not the email." (null); here a Schema
   Object may only hold the keywords of JSON Schema 2020-12's vocabularies
   and OpenAPI 3.1's (discriminator, xml, externalDocs, example), and any
   object `x-` extensions.
3. A key given twice in one mapping, which YAML loaders keep the last of
   silently, is refused too.

Prints each problem with its JSON path (and line) and exits 1; prints
"openapi: N schema objects checked, no stray key" otherwise.

Run by scripts/check-openapi.sh with the venv of scripts/install-deps.sh.
"""

import re
import sys

import yaml
from openapi_spec_validator import OpenAPIV31SpecValidator

# JSON Schema 2020-12, every vocabulary of its meta-schema.
SCHEMA_KEYWORDS = {
    # core
    "$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor",
    "$vocabulary", "$comment", "$defs",
    # applicator
    "prefixItems", "items", "contains", "additionalProperties", "properties",
    "patternProperties", "dependentSchemas", "propertyNames", "if", "then",
    "else", "allOf", "anyOf", "oneOf", "not",
    # unevaluated
    "unevaluatedItems", "unevaluatedProperties",
    # validation
    "type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
    "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
    "maxProperties", "minProperties", "required", "dependentRequired",
    # meta-data
    "title", "description", "default", "deprecated", "readOnly", "writeOnly",
    "examples",
    # format-annotation
    "format",
    # content
    "contentEncoding", "contentMediaType", "contentSchema",
    # OpenAPI 3.1's base vocabulary
    "discriminator", "xml", "externalDocs", "example",
}
SUBSCHEMA = {"items", "contains", "additionalProperties", "propertyNames", "if",
             "then", "else", "not", "unevaluatedItems", "unevaluatedProperties",
             "contentSchema"}
SUBSCHEMA_LISTS = {"prefixItems", "allOf", "anyOf", "oneOf"}
SUBSCHEMA_MAPS = {"properties", "patternProperties", "dependentSchemas", "$defs"}

# OpenAPI 3.1 objects: their fixed fields, and what each field holds
# (a kind, ("map", kind), ("list", kind), or None for a plain value).
MAP, LIST = "map", "list"
OBJECTS = {
    "OpenAPI": {"openapi": None, "info": "Info", "jsonSchemaDialect": None,
                "servers": (LIST, "Server"), "paths": "Paths",
                "webhooks": (MAP, "PathItem"), "components": "Components",
                "security": (LIST, "SecurityRequirement"), "tags": (LIST, "Tag"),
                "externalDocs": "ExternalDocs"},
    "Info": {"title": None, "summary": None, "description": None,
             "termsOfService": None, "contact": "Contact", "license": "License",
             "version": None},
    "Contact": {"name": None, "url": None, "email": None},
    "License": {"name": None, "identifier": None, "url": None},
    "Server": {"url": None, "description": None,
               "variables": (MAP, "ServerVariable")},
    "ServerVariable": {"enum": None, "default": None, "description": None},
    "Components": {"schemas": (MAP, "Schema"), "responses": (MAP, "Response"),
                   "parameters": (MAP, "Parameter"), "examples": (MAP, "Example"),
                   "requestBodies": (MAP, "RequestBody"), "headers": (MAP, "Header"),
                   "securitySchemes": (MAP, "SecurityScheme"),
                   "links": (MAP, "Link"), "callbacks": (MAP, "Callback"),
                   "pathItems": (MAP, "PathItem")},
    "PathItem": {"$ref": None, "summary": None, "description": None,
                 **{method: "Operation" for method in
                    ["get", "put", "post", "delete", "options", "head", "patch", "trace"]},
                 "servers": (LIST, "Server"), "parameters": (LIST, "Parameter")},
    "Operation": {"tags": None, "summary": None, "description": None,
                  "externalDocs": "ExternalDocs", "operationId": None,
                  "parameters": (LIST, "Parameter"), "requestBody": "RequestBody",
                  "responses": "Responses", "callbacks": (MAP, "Callback"),
                  "deprecated": None, "security": (LIST, "SecurityRequirement"),
                  "servers": (LIST, "Server")},
    "ExternalDocs": {"description": None, "url": None},
    "Parameter": {"name": None, "in": None, "description": None, "required": None,
                  "deprecated": None, "allowEmptyValue": None, "style": None,
                  "explode": None, "allowReserved": None, "schema": "Schema",
                  "example": None, "examples": (MAP, "Example"),
                  "content": (MAP, "MediaType")},
    "RequestBody": {"description": None, "content": (MAP, "MediaType"),
                    "required": None},
    "MediaType": {"schema": "Schema", "example": None, "examples": (MAP, "Example"),
                  "encoding": (MAP, "Encoding")},
    "Encoding": {"contentType": None, "headers": (MAP, "Header"), "style": None,
                 "explode": None, "allowReserved": None},
    "Response": {"description": None, "headers": (MAP, "Header"),
                 "content": (MAP, "MediaType"), "links": (MAP, "Link")},
    "Example": {"summary": None, "description": None, "value": None,
                "externalValue": None},
    "Link": {"operationRef": None, "operationId": None, "parameters": None,
             "requestBody": None, "description": None, "server": "Server"},
    "Header": {"description": None, "required": None, "deprecated": None,
               "allowEmptyValue": None, "style": None, "explode": None,
               "allowReserved": None, "schema": "Schema", "example": None,
               "examples": (MAP, "Example"), "content": (MAP, "MediaType")},
    "Tag": {"name": None, "description": None, "externalDocs": "ExternalDocs"},
    "SecurityScheme": {"type": None, "description": None, "name": None, "in": None,
                       "scheme": None, "bearerFormat": None, "flows": "OAuthFlows",
                       "openIdConnectUrl": None},
    "OAuthFlows": {"implicit": "OAuthFlow", "password": "OAuthFlow",
                   "clientCredentials": "OAuthFlow",
                   "authorizationCode": "OAuthFlow"},
    "OAuthFlow": {"authorizationUrl": None, "tokenUrl": None, "refreshUrl": None,
                  "scopes": None},
    "Discriminator": {"propertyName": None, "mapping": None},
    "XML": {"name": None, "namespace": None, "prefix": None, "attribute": None,
            "wrapped": None},
}
# A Reference Object stands where any of these objects may.
REFERENCE = {"$ref", "summary", "description"}
REFERABLE = {"Response", "Parameter", "Example", "RequestBody", "Header",
             "SecurityScheme", "Link", "Callback"}
STATUS = re.compile(r"^[1-5](?:[0-9]{2}|XX)$")


class Loader(yaml.SafeLoader):
    """Keeps each mapping's keys' lines, and refuses a key given twice."""

    lines = {}
    duplicates = []

    def construct_mapping(self, node, deep=False):
        self.flatten_mapping(node)
        mapping = {}
        lines = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                # Status codes written bare, 200: … (OpenAPI means strings).
                key = str(key)
            if key in mapping:
                Loader.duplicates.append((key, key_node.start_mark.line + 1))
            mapping[key] = self.construct_object(value_node, deep=deep)
            lines[key] = key_node.start_mark.line + 1
        Loader.lines[id(mapping)] = lines
        return mapping


Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                       Loader.construct_mapping)


IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def step(path, key):
    """path extended by a key, as JSONPath writes it: $.a['/b'][0]."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if IDENTIFIER.match(key):
        return f"{path}.{key}"
    return f"{path}[{key!r}]"


class Walker:
    def __init__(self):
        self.problems = []
        self.schemas = 0

    def stray(self, obj, path, key, kind):
        line = Loader.lines.get(id(obj), {}).get(key)
        where = f" (line {line})" if line else ""
        self.problems.append(f"{step(path, key)}: stray key {key!r}{where}, "
                             f"not a field of a {kind}")

    def walk(self, obj, kind, path):
        if not isinstance(obj, dict):
            return  # the meta-schema says what type each value has
        if kind == "Schema":
            return self.schema(obj, path)
        if kind == "Paths":
            for key, value in obj.items():
                if key.startswith("x-"):
                    continue
                if not key.startswith("/"):
                    self.stray(obj, path, key, "Paths Object")
                    continue
                self.walk(value, "PathItem", step(path, key))
            return
        if kind == "Responses":
            for key, value in obj.items():
                if key.startswith("x-"):
                    continue
                if key != "default" and not STATUS.match(key):
                    self.stray(obj, path, key, "Responses Object")
                    continue
                self.walk(value, "Response", step(path, key))
            return
        if kind == "Callback":
            for key, value in obj.items():
                if not key.startswith("x-"):
                    self.walk(value, "PathItem", step(path, key))
            return
        if kind == "SecurityRequirement":
            return  # any scheme's name
        if kind in REFERABLE and "$ref" in obj:
            for key in obj:
                if key not in REFERENCE:
                    self.stray(obj, path, key, "Reference Object")
            return
        fields = OBJECTS[kind]
        for key, value in obj.items():
            if key.startswith("x-"):
                continue
            if key not in fields:
                self.stray(obj, path, key, f"{kind} Object")
                continue
            self.child(value, fields[key], step(path, key))

    def child(self, value, holds, path):
        if holds is None:
            return
        if isinstance(holds, tuple):
            shape, kind = holds
            if shape == MAP and isinstance(value, dict):
                for key, item in value.items():
                    self.walk(item, kind, step(path, key))
            elif shape == LIST and isinstance(value, list):
                for index, item in enumerate(value):
                    self.walk(item, kind, step(path, index))
            return
        self.walk(value, holds, path)

    def schema(self, obj, path):
        self.schemas += 1
        for key, value in obj.items():
            if key.startswith("x-"):
                continue
            here = step(path, key)
            if key not in SCHEMA_KEYWORDS:
                self.stray(obj, path, key, "Schema Object (JSON Schema 2020-12, OpenAPI 3.1)")
            elif key in SUBSCHEMA:
                self.walk(value, "Schema", here)
            elif key in SUBSCHEMA_LISTS and isinstance(value, list):
                for index, item in enumerate(value):
                    self.walk(item, "Schema", step(here, index))
            elif key in SUBSCHEMA_MAPS and isinstance(value, dict):
                for name, item in value.items():
                    self.walk(item, "Schema", step(here, name))
            elif key == "discriminator":
                self.walk(value, "Discriminator", here)
            elif key == "xml":
                self.walk(value, "XML", here)
            elif key == "externalDocs":
                self.walk(value, "ExternalDocs", here)


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as file:
        document = yaml.load(file, Loader=Loader)

    problems = []
    for key, line in Loader.duplicates:
        problems.append(f"line {line}: key {key!r} given twice in one mapping")

    validator = OpenAPIV31SpecValidator(document, base_uri=f"file://{path}")
    for error in validator.iter_errors():
        where = getattr(error, "json_path", None) or "/".join(
            str(part) for part in getattr(error, "absolute_path", []))
        problems.append(f"{where}: {error.message} (OpenAPI 3.1 meta-schema)")

    walker = Walker()
    walker.walk(document, "OpenAPI", "$")
    problems += walker.problems

    for problem in problems:
        print(f"openapi: {problem}")
    if problems:
        count = f"{len(problems)} problem" + ("s" if len(problems) > 1 else "")
        print(f"openapi: {count} in {path}")
        return 1
    print(f"openapi: {walker.schemas} schema objects checked, no stray key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
