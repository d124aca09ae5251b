"""The long-running processes of a game, talking over Redis.

``bus`` is the transport (RPC with deadlines, inboxes, events, heartbeats, key names, ACL users);
``game``, ``player`` and ``manager`` are the services, each runnable as
``python -m gptnt.services.<name>`` and each with an ``api.py`` of the models caller and callee share.
"""
